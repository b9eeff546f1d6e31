import { mkdtempSync, rmSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../bridge/cli';
import { cli } from './run-cli';
import { acquireLock } from '../../bridge/lock';
import { openJobVault } from '../../bridge/open-vault';
import { silentLogger } from '../../shared/ports';
import { DEFAULT_LEARNING } from '../../shared/learning/tunables';

/** `lithos learning`: show the vault's learning constants, change one, put them back; audited, and what the engine then uses. */
let vault: string;

beforeEach(() => {
  vault = mkdtempSync(join(tmpdir(), 'lithos-learning-'));
  mkdirSync(join(vault, '.lithos'));
});
afterEach(() => {
  rmSync(vault, { recursive: true, force: true });
});

const file = () => JSON.parse(readFileSync(join(vault, '.lithos/learning.json'), 'utf8')) as unknown;

test('no file: every constant at its default, as a table and as JSON', async () => {
  const text = await cli('learning', vault);
  expect(text.code).toBe(0);
  expect(text.out).toMatch(/^feedback\.quarantine_at\s+3\s+default\s+a whole number from 1 to 1000$/m);
  expect(text.out).toContain('0 of 21 overridden in .lithos/learning.json.');
  expect((await cli('learning', vault, '--json')).json()).toEqual({
    file: '.lithos/learning.json',
    problem: null,
    overrides: {},
    constants: DEFAULT_LEARNING,
    notes: { briefing: { path: 'Lithos/Briefing.md', default: true, exists: false }, timeline: { path: 'Lithos/Timeline.md', default: true, exists: false } },
  });
});

test("the person's briefing and timeline notes: where they are kept, whether by default, whether written yet", async () => {
  const shown = (await cli('learning', vault)).out;
  expect(shown).toMatch(/^briefing\.path\s+Lithos\/Briefing\.md\s+default\s+not written yet \(the plugin or lithos mcp writes it once there is something to say\)$/m);
  expect(shown).toMatch(/^timeline\.path\s+Lithos\/Timeline\.md\s+default\s+not written yet/m);
  expect(shown).toContain('Move or turn off one: set its path (null: none) in .lithos/learning.json.');

  writeFileSync(join(vault, '.lithos/learning.json'), JSON.stringify({ version: 1, briefing: { path: 'Me/Start here.md' }, timeline: { path: null } }));
  mkdirSync(join(vault, 'Me'));
  writeFileSync(join(vault, 'Me/Start here.md'), '# Briefing\n');
  const moved = await cli('learning', vault);
  expect(moved.out).toMatch(/^briefing\.path\s+Me\/Start here\.md\s+default Lithos\/Briefing\.md\s+exists$/m);
  expect(moved.out).toMatch(/^timeline\.path\s+none kept\s+default Lithos\/Timeline\.md\s*$/m);
  expect((await cli('learning', vault, '--json')).json()).toMatchObject({
    notes: { briefing: { path: 'Me/Start here.md', default: false, exists: true }, timeline: { path: null, default: false, exists: false } },
  });
});

test('--set writes the overrides (one audit entry for all), --set key=default undoes one, --reset all; the engine reads them', async () => {
  const set = await cli('learning', vault, '--set', 'quarantine_at=2', '--set', 'decay.edge_half_life_days=45', '--json');
  expect(set.json()).toMatchObject({ problem: null, overrides: { feedback: { quarantine_at: 2 }, decay: { edge_half_life_days: 45 } } });
  expect(file()).toEqual({ version: 1, feedback: { quarantine_at: 2 }, decay: { edge_half_life_days: 45 } });
  expect((await cli('learning', vault)).out).toMatch(/^feedback\.quarantine_at\s+2\s+default 3\s/m);

  await cli('learning', vault, '--set', 'quarantine_at=default');
  expect(file()).toEqual({ version: 1, decay: { edge_half_life_days: 45 } });
  const v = await openJobVault(vault, 'doctor', { write: false, logger: silentLogger });
  expect(v.engine.services.learning.tunables.get().decay.edge_half_life_days).toBe(45);
  await v.close();

  await cli('learning', vault, '--reset');
  expect(file()).toEqual({ version: 1 });
  const audit = readFileSync(join(vault, '.lithos/audit.jsonl'), 'utf8').trim().split('\n');
  expect(audit.filter((l) => l.includes('"action":"learning.set"'))).toHaveLength(3);
  expect((await cli('audit', 'verify', vault)).code).toBe(0);
});

test('bad values and keys are refused and nothing is written; a damaged file is reported, not rewritten', async () => {
  await expect(main(['learning', vault, '--set', 'ignored_salience=0.1'])).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('feedback.ignored_salience: must be a number from -1 to 0 (got 0.1)') });
  await expect(main(['learning', vault, '--set', 'quarantine_at=two'])).rejects.toMatchObject({ message: expect.stringContaining('(got "two")') });
  await expect(main(['learning', vault, '--set', 'spaced_rep_max=3'])).rejects.toMatchObject({ message: expect.stringContaining('"spaced_rep_max" is not a tunable learning constant') });
  await expect(main(['learning', vault, '--set', 'quarantine_at'])).rejects.toMatchObject({ message: expect.stringContaining('--set takes key=value') });
  await expect(main(['learning', vault, '--set', 'quarantine_at=0x4'])).rejects.toMatchObject({ message: expect.stringContaining('(got "0x4")') });
  await expect(main(['learning', vault, '--reset', '--set', 'quarantine_at=2'])).rejects.toMatchObject({ code: 'invalid_argument' });
  expect(() => readFileSync(join(vault, '.lithos/learning.json'))).toThrow();

  writeFileSync(join(vault, '.lithos/learning.json'), '{"feedback": {"quarantine_at": 0}}');
  const shown = await cli('learning', vault);
  expect(shown.out).toMatch(/^Warning: Not a valid learning configuration: feedback\.quarantine_at: must be a whole number from 1 to 1000 \(got 0\)\./);
  expect(readFileSync(join(vault, '.lithos/learning.json'), 'utf8')).toBe('{"feedback": {"quarantine_at": 0}}');

  // --set on it would write one override and drop the others unseen: refused; --reset is the explicit way out.
  await expect(main(['learning', vault, '--set', 'decay.edge_half_life_days=45'])).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('Fix the file by hand first, or start over from the defaults with --reset') });
  expect(readFileSync(join(vault, '.lithos/learning.json'), 'utf8')).toBe('{"feedback": {"quarantine_at": 0}}');
  expect((await cli('learning', vault, '--reset', '--json')).json()).toMatchObject({ problem: null, overrides: {} });
});

test('--set while another process holds the writer lock is refused (vault_locked); showing still works', async () => {
  const lock = await acquireLock(join(vault, '.lithos'), { owner: 'plugin' });
  try {
    await expect(main(['learning', vault, '--set', 'quarantine_at=2'])).rejects.toMatchObject({ code: 'vault_locked' });
    expect((await cli('learning', vault)).code).toBe(0);
  } finally {
    await lock.release();
  }
});
