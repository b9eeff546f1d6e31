import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './run-cli';

/** Ledger IDs as a person meets them headless: doctor reports, a writing command allocates, the device record stays out of the vault. */
let root: string;
let vault: string;
let savedXdg: string | undefined;

function write(rel: string, text: string): void {
  const p = join(vault, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
}

const read = (rel: string): string => readFileSync(join(vault, rel), 'utf8');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-ledger-cli-'));
  vault = join(root, 'vault');
  mkdirSync(vault);
  savedXdg = process.env.XDG_CONFIG_HOME;
  process.env.XDG_CONFIG_HOME = join(root, 'config');
  write('claims/Sessions.md', '---\ntitle: Sessions expire\nnote_type: claim\n---\nSessions expire after 30 idle minutes.\n');
  write('Refs.md', '---\ntitle: Refs\n---\nIntro.\n\nThis contradicts E999.\n');
});

afterEach(() => {
  if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedXdg;
  rmSync(root, { recursive: true, force: true });
});

test('doctor lists an unresolved E999 with its note and line and a claim still without an ID, and changes no note', async () => {
  const before = [read('claims/Sessions.md'), read('Refs.md')];
  const r = await cli('doctor', vault);
  expect(r.out).toContain('unresolved_ledger_ref: Refs.md:6: E999 names no note in this vault');
  expect(r.out).toContain('missing_ledger_id: claims/Sessions.md (ledger_id):');
  expect([read('claims/Sessions.md'), read('Refs.md')]).toEqual(before);
  expect((await cli('doctor', vault, '--json')).json().ledger_ids).toHaveLength(2);
});

test('a writing command gives the claim its ID (frontmatter only); the next run is the same device; its record is in the config folder, not the vault', async () => {
  await cli('index', vault);
  const first = /\nledger_id: (E001-[a-z2-7]{4})\n/.exec(read('claims/Sessions.md'))?.[1];
  expect(first).toBeDefined();
  expect(read('claims/Sessions.md').endsWith('---\nSessions expire after 30 idle minutes.\n')).toBe(true);
  write('claims/Tokens.md', '---\nnote_type: claim\n---\nTokens rotate daily.\n');
  await cli('index', vault);
  expect(read('claims/Tokens.md')).toContain(`ledger_id: E002-${first!.slice(5)}\n`);
  expect(readdirSync(join(root, 'config', 'lithos', 'devices'))).toHaveLength(1);
  expect(readdirSync(join(vault, '.lithos', 'ledger'))).toHaveLength(1);
  const doctor = (await cli('doctor', vault, '--json')).json().ledger_ids;
  expect(doctor.map((p: { code: string }) => p.code)).toEqual(['unresolved_ledger_ref']);
});
