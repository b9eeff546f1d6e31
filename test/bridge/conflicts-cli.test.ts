import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../bridge/cli';
import { cli } from './run-cli';

/** `lithos conflicts`, `conflicts scan` and `conflicts resolve` on a real folder, JSON parsed back. */
let root: string;
let vault: string;
const POOL = 'project/atlas/Pool.md';
const TUNING = 'project/atlas/Tuning.md';
const POOL_TEXT = '---\nid: 11111111-1111-4111-8111-111111111111\ntitle: Pool\nentities: [atlas-ingest]\n---\nThe ingest pool size is 20.\n';
const TUNING_TEXT = '---\nid: 22222222-2222-4222-8222-222222222222\ntitle: Tuning\nentities: [atlas-ingest]\n---\nThe ingest pool size is 50.\n';

function write(rel: string, text: string): void {
  const p = join(vault, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
}
const read = (rel: string) => readFileSync(join(vault, rel), 'utf8');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-conflicts-'));
  vault = join(root, 'vault');
  write(POOL, POOL_TEXT);
  write(TUNING, TUNING_TEXT);
  write('shared/Garden.md', 'Tomatoes need sun and water.\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

test('scan finds the disagreement and writes callouts; list shows it; resolve settles it and removes them', async () => {
  expect((await cli('conflicts', vault, '--json')).json()).toEqual({ conflicts: [] });
  const scan = await cli('conflicts', 'scan', vault, '--json');
  expect(scan.code).toBe(0);
  const s = scan.json();
  expect(s).toMatchObject({ notes: 3, callouts_written: 2, opened: [{ state: 'unreviewed', provenance_type: 'rule', evidence: { rule: 'number' } }] });
  const edge = s.opened[0].edge_id as string;
  expect(read(POOL)).toContain(`%% lithos:begin conflict ${edge} %%\n> [!lithos-conflict] Contradicts [[project/atlas/Tuning|Tuning]]`);

  const text = await cli('conflicts', vault, '--state', 'unreviewed');
  expect(text.out).toContain(edge);
  expect(text.out).toContain('project/atlas/Pool.md');

  const r = await cli('conflicts', 'resolve', vault, edge, 'superseded', '--winner', TUNING, '--json');
  expect(r.code).toBe(0);
  expect(r.json()).toMatchObject({ conflict: { state: 'superseded', b: { path: expect.any(String) } }, unchanged: false });
  expect(read(TUNING)).toContain('supersedes:');
  expect(read(POOL)).toContain('status: archived');
  expect(read(POOL)).toContain('> [!lithos-status] Superseded by [[project/atlas/Tuning|Tuning]]');
  expect(read(POOL)).not.toContain('lithos-conflict');
  expect((await cli('conflicts', vault, '--state', 'unreviewed', '--json')).json()).toEqual({ conflicts: [] });
});

test('bad usage and bad values', async () => {
  const errs: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((x) => (errs.push(String(x)), true));
  try {
    expect(await run(['conflicts', 'resolve', vault])).toBe(2);
    expect(await run(['conflicts', vault, '--state', 'open'])).toBe(2);
    expect(await run(['conflicts', 'resolve', vault, 'nope', 'accepted_dual'])).toBe(1);
    expect(await run(['conflicts', 'resolve', vault, 'nope', 'ignored'])).toBe(2);
    expect(await run(['conflicts', 'resolve', vault, 'nope', 'refuted', '--winner', 'x'])).toBe(1);
  } finally {
    spy.mockRestore();
  }
  expect(errs.join('')).toMatch(/--state must be one of unreviewed/);
  expect(errs.join('')).toMatch(/No conflict with edge_id "nope"/);
  expect(errs.join('')).toMatch(/<resolution> must be one of accepted_dual, superseded, refuted, merged \(got "ignored"\)/);
  expect(errs[errs.length - 1]).toMatch(/No conflict with edge_id "nope"/); // not a complaint about --winner x
});

test('callouts: false in .lithos/config.json: conflicts are found, notes stay untouched', async () => {
  write('.lithos/config.json', JSON.stringify({ callouts: false }));
  const s = (await cli('conflicts', 'scan', vault, '--json')).json();
  expect(s.opened).toHaveLength(1);
  expect([read(POOL), read(TUNING)]).toEqual([POOL_TEXT, TUNING_TEXT]);
});

test('the example vault: a scan of its 48 notes opens exactly the INC-142 pair (the cause rule); nothing else changes but its two callouts', async () => {
  const { cpSync, readdirSync } = await import('node:fs');
  const copy = join(root, 'example');
  cpSync(join(__dirname, '../../examples/vault'), copy, { recursive: true, filter: (src) => !src.includes('.lithos') });
  const notes = (readdirSync(copy, { recursive: true }) as string[]).filter((p) => p.endsWith('.md'));
  const before = new Map(notes.map((p) => [p, readFileSync(join(copy, p), 'utf8')]));
  const s = (await cli('conflicts', 'scan', copy, '--json')).json();
  const missingIndex = join('agent', 'reviewer', 'Ingest p95 regression caused by missing index.md');
  const poolSize = join('agent', 'scout-7', 'Ingest p95 regression caused by pool size.md');
  // The quarantined note already carries its status callout, so the sweep rewrites nothing; the conflict writes its two.
  expect(s).toMatchObject({ notes: 48, callouts_written: 2 });
  expect(s.opened).toHaveLength(1);
  expect(s.opened[0]).toMatchObject({ evidence: { rule: 'cause' } });
  expect([s.opened[0].a.path, s.opened[0].b.path].sort()).toEqual([missingIndex, poolSize].map((p) => p.split('\\').join('/')).sort());
  const changed = notes.filter((p) => readFileSync(join(copy, p), 'utf8') !== before.get(p)).sort();
  expect(changed).toEqual([missingIndex, poolSize].sort());
  for (const p of [missingIndex, poolSize]) {
    const text = readFileSync(join(copy, p), 'utf8');
    expect(text).toContain('> [!lithos-conflict] Contradicts [[');
    expect(text).toContain('found by the `cause` rule about "cause of p95 latency regression ingestion"');
    // The user's text is untouched: removing the managed block gives the original back.
    expect(text.replace(/%% lithos:begin conflict [^%]+%%\n[\s\S]*?%% lithos:end %%\n\n/, '')).toBe(before.get(p));
  }
});
