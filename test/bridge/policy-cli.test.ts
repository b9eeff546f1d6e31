import { mkdtempSync, rmSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../bridge/cli';
import { cli } from './run-cli';
import { acquireLock } from '../../bridge/lock';
import { DEFAULT_POLICY } from '../../shared/governance/policy';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { agentTools } from '../../shared/governance/tool-access';

/** `lithos policy`: what agents may see and call, shown and changed from the terminal; validated, audited, locked. */
let vault: string;

beforeEach(() => {
  vault = mkdtempSync(join(tmpdir(), 'lithos-policy-'));
  mkdirSync(join(vault, '.lithos'));
});
afterEach(() => rmSync(vault, { recursive: true, force: true }));

const file = () => JSON.parse(readFileSync(join(vault, '.lithos/policy.json'), 'utf8')) as typeof DEFAULT_POLICY;

test('no file: the defaults, every tool visible', async () => {
  const shown = await cli('policy', vault);
  expect(shown.code).toBe(0);
  expect(shown.out).toMatch(/^agents read-only +no$/m);
  expect(shown.out).toMatch(new RegExp(`^tools agents see +${agentTools(TOOL_CATALOG).length} of ${agentTools(TOOL_CATALOG).length}$`, 'm'));
  expect((await cli('policy', vault, '--json')).json()).toMatchObject({ file: '.lithos/policy.json', problem: null, policy: DEFAULT_POLICY });
});

test('read-only, tools and hidden folders change in one audited write; enable/unhide undo them; the rest of the file is kept', async () => {
  writeFileSync(join(vault, '.lithos/policy.json'), JSON.stringify({ propose_namespaces: ['decisions'] }));
  const set = await cli('policy', vault, '--read-only', 'on', '--disable', 'lithos_delete', '--hide', '/private/', '--json');
  expect(set.json().policy).toMatchObject({ propose_namespaces: ['decisions'], hidden_folders: ['private'], agent_tools: { read_only: true, disabled: ['lithos_delete'] } });
  expect(set.json().visible_tools).toEqual(agentTools(TOOL_CATALOG).filter((d) => d.annotations.readOnlyHint).map((d) => d.name));
  expect(file().agent_tools).toEqual({ read_only: true, disabled: ['lithos_delete'] });

  await cli('policy', vault, '--read-only', 'off', '--enable', 'lithos_delete', '--unhide', 'private');
  expect(file()).toMatchObject({ propose_namespaces: ['decisions'], hidden_folders: [], agent_tools: { read_only: false, disabled: [] } });
  const audit = readFileSync(join(vault, '.lithos/audit.jsonl'), 'utf8').trim().split('\n');
  expect(audit.filter((l) => l.includes('"action":"policy.set"'))).toHaveLength(2);
  expect((await cli('audit', 'verify', vault)).code).toBe(0);
});

test('unknown tools and bad switches are refused and nothing is written; a damaged file is not replaced', async () => {
  await expect(main(['policy', vault, '--disable', 'rm'])).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/--disable must be one of lithos_\w+, .*\(got "rm"\)/) });
  await expect(main(['policy', vault, '--read-only', 'maybe'])).rejects.toMatchObject({ message: expect.stringContaining('--read-only must be one of on, off (got "maybe")') });
  await expect(main(['policy', vault, '--hide', '../outside'])).rejects.toMatchObject({ code: 'invalid_argument' });
  expect(() => readFileSync(join(vault, '.lithos/policy.json'))).toThrow();

  writeFileSync(join(vault, '.lithos/policy.json'), '{ nope');
  expect((await cli('policy', vault)).out).toMatch(/^Warning: \.lithos\/policy\.json is not valid JSON/);
  await expect(main(['policy', vault, '--read-only', 'on'])).rejects.toMatchObject({ message: expect.stringContaining('Fix the file by hand first') });
  expect(readFileSync(join(vault, '.lithos/policy.json'), 'utf8')).toBe('{ nope');
});

test('a change while another process holds the writer lock is refused (vault_locked); showing still works', async () => {
  const lock = await acquireLock(join(vault, '.lithos'), { owner: 'plugin' });
  try {
    await expect(main(['policy', vault, '--read-only', 'on'])).rejects.toMatchObject({ code: 'vault_locked' });
    expect((await cli('policy', vault)).code).toBe(0);
  } finally {
    await lock.release();
  }
});
