import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../bridge/cli';
import { cli } from './run-cli';
import { openJobVault } from '../../bridge/open-vault';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { silentLogger } from '../../shared/ports';

/** `lithos proposals` as a person drives it: list the pending writes of agents, accept one, reject another. */
let root: string;
let vault: string;
let ids: string[];

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'lithos-proposals-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'decisions'), { recursive: true });
  writeFileSync(join(vault, 'decisions/ADR 1.md'), '---\ntitle: ADR 1\n---\nWe use Postgres.\n');
  const v = await openJobVault(vault, 'mcp', { write: true, logger: silentLogger });
  try {
    await v.engine.reconcile();
    await v.engine.services.governance.policy.set({ propose_namespaces: ['decisions'] });
    const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: v.engine }));
    const agent = { kind: 'agent' as const, agent_id: 'claude' };
    const a = (await tools.call('lithos_write', { title: 'ADR 2', namespace: 'decisions', content: 'We cache with Redis.\n' }, agent)) as { proposal_id: string };
    const { version } = (await tools.call('lithos_read', { path: 'decisions/ADR 1.md' }, agent)) as { version: string };
    const b = (await tools.call('lithos_write', { path: 'decisions/ADR 1.md', content: 'We use MySQL.\n', expected_version: version }, agent)) as { proposal_id: string };
    ids = [a.proposal_id, b.proposal_id];
  } finally {
    await v.close();
  }
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

test('lists pending proposals, oldest first, as a table and as JSON', async () => {
  const text = await cli('proposals', vault);
  expect(text.code).toBe(0);
  expect(text.out).toContain(ids[0]);
  expect(text.out).toMatch(/decisions\/ADR 2\.md/);
  // ADR 1 is the person's note (written without an agent as author): the table says why it waits.
  expect(text.out).toMatch(/decisions\/ADR 1\.md\s+write\s+your note/);
  expect(text.out).toMatch(/2 proposals, oldest first/);
  const json = (await cli('proposals', vault, '--status', 'pending', '--json')).json();
  expect(json.proposals.map((p: { proposal_id: string; agent: string }) => [p.proposal_id, p.agent])).toEqual([[ids[0], 'claude'], [ids[1], 'claude']]);
  expect(json.damaged).toBe(0);
});

test('accept writes the note as the agent; reject leaves the note; both are audited and the chain verifies', async () => {
  expect(existsSync(join(vault, 'decisions/ADR 2.md'))).toBe(false);
  const accepted = await cli('proposals', 'accept', vault, ids[0]);
  expect(accepted.out).toMatch(/Accepted .*created "decisions\/ADR 2\.md" as claude/);
  expect(readFileSync(join(vault, 'decisions/ADR 2.md'), 'utf8')).toMatch(/author: claude[\s\S]*We cache with Redis\./);

  const rejected = await cli('proposals', 'reject', vault, ids[1], '--reason', 'We stay on Postgres.', '--json');
  expect(rejected.json()).toMatchObject({ status: 'rejected', reason: 'We stay on Postgres.' });
  expect(readFileSync(join(vault, 'decisions/ADR 1.md'), 'utf8')).toContain('We use Postgres.');

  expect((await cli('proposals', vault, '--status', 'pending', '--json')).json().proposals).toEqual([]);
  const audit = readFileSync(join(vault, '.lithos/audit.jsonl'), 'utf8');
  expect(audit).toMatch(/"action":"proposal\.accept"/);
  expect(audit).toMatch(/"action":"proposal\.reject"/);
  expect((await cli('audit', 'verify', vault)).code).toBe(0);
});

test('bad usage and unknown ids are refused', async () => {
  await expect(main(['proposals', 'accept', vault])).rejects.toThrow(/lithos proposals accept: missing <id>\. Usage: lithos proposals accept <vault> <id>/);
  await expect(main(['proposals', vault, '--status', 'maybe'])).rejects.toMatchObject({ code: 'invalid_argument' });
  await expect(main(['proposals', 'reject', vault, '00000000-0000-4000-8000-000000000000'])).rejects.toMatchObject({ code: 'not_found' });
});
