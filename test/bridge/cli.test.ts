import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../bridge/cli';
import { cli } from './run-cli';
import { acquireLock } from '../../bridge/lock';

/** The CLI as a user drives it: real folders, real stores, JSON output parsed back. */
let root: string;
let vault: string;

function write(rel: string, text: string): void {
  const p = join(vault, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-cli-'));
  vault = join(root, 'vault');
  mkdirSync(vault);
  write('project/atlas/pool.md', '---\ntitle: Pool sizing\ntags: [atlas, latency]\n---\nThe connection pool was too small. See [[Index]].\n');
  write('project/atlas/Index.md', '---\nid: 6f2a7c1e-2b4d-4c8e-9f10-1a2b3c4d5e6f\nschema_version: 2\n---\nThe missing index caused the latency regression.\n');
  write('shared/broken.md', '---\ntags: [unclosed\n---\nbroken frontmatter but searchable otters\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

test('<command> --help (or -h) prints that command\'s usage, options and examples and exits 0; an unknown command\'s --help prints the command list', async () => {
  const conflicts = await cli('conflicts', '--help');
  expect(conflicts.code).toBe(0);
  expect(conflicts.out).toMatch(/^Usage: lithos conflicts <vault> \[options\]$/m);
  expect(conflicts.out).toMatch(/^ {2}--state <state> +only conflicts in this state \(one of: unreviewed, /m);
  // its subcommands are listed with their summaries
  expect(conflicts.out).toMatch(/^ {2}lithos conflicts resolve +resolve one conflict/m);
  expect(conflicts.out).toMatch(/^ {2}lithos conflicts scan +run the conflict rules/m);
  const retrieve = await cli('retrieve', vault, 'q', '-h');
  expect(retrieve.code).toBe(0);
  expect(retrieve.out).toMatch(/^lithos retrieve — Parallel Terraced Scan/);
  expect(retrieve.out).toMatch(/^Examples:\n {2}lithos retrieve /m);
  expect(retrieve.out).not.toMatch(/lithos search/);
  const unknown = await cli('frobnicate', '--help');
  expect(unknown.code).toBe(0);
  expect(unknown.out).toMatch(/^ {2}search +keyword and vector search/m);
  expect(unknown.out).toMatch(/^ {2}policy +show or change/m);
  const group = await cli('audit', '--help');
  expect(group.code).toBe(0);
  expect(group.out).toMatch(/lithos audit verify +check the audit trail/);
});

test('index --json reports counts and errors; a second run costs nothing', async () => {
  const first = await cli('index', vault, '--json');
  expect(first.code).toBe(0);
  expect(first.json()).toMatchObject({ notes: 3, indexed: 3, unchanged: 0, errors: [], problems: 1, embedding_spaces: ['hash-ngram-v2-384'] });
  const second = await cli('index', vault, '--json');
  expect(second.json()).toMatchObject({ notes: 3, indexed: 0, unchanged: 3 });
  expect(readdirSync(join(vault, '.lithos'))).toEqual(expect.arrayContaining(['memory.sqlite', 'cache.bin']));
});

test('search --json prints results with id, path, title and score', async () => {
  const r = await cli('search', vault, 'connection', 'pool', '--json', '--k', '2');
  expect(r.code).toBe(0);
  const { results } = r.json();
  expect(results[0]).toMatchObject({ path: 'project/atlas/pool.md', title: 'Pool sizing', namespace: 'project/atlas' });
  expect(typeof results[0].id).toBe('string');
  expect(results[0].score).toBeGreaterThan(0);
  for (const mode of ['lexical', 'vector', 'hybrid']) expect((await cli('search', vault, 'otters', '--mode', mode, '--json')).json().results[0].path).toBe('shared/broken.md');
  expect(r.json().spaces).toEqual([{ id: 'hash-ngram-v2-384', semantic: false }]);
});

test('search tells people when its vectors are not semantic, and how to get a model', async () => {
  const r = await cli('search', vault, 'otters', '--mode', 'vector');
  expect(r.out).toMatch(/Vectors: hash-ngram-v2-384 \(not semantic\)\.\nMatches by meaning need a model: lithos model pull /);
  expect((await cli('search', vault, 'otters', '--mode', 'lexical')).out).not.toMatch(/Vectors:/);
});

test('stats: people get aligned tables with no JSON in them; --json keeps the engine\'s fields', async () => {
  const text = await cli('stats', vault);
  expect(text.code).toBe(0);
  expect(text.out).not.toMatch(/[{}[\]"]/);
  expect(text.out).toMatch(/^notes +3$/m);
  expect(text.out).toMatch(/^namespace +count\nproject\/atlas +2\nshared +1$/m);
  expect(text.out).toMatch(/^embedding spaces +hash-ngram-v2-384 \(384 dims, active\)$/m);
  const json = (await cli('stats', vault, '--json')).json();
  expect(Object.keys(json)).toEqual(['notes', 'chunks', 'problems', 'by_note_type', 'by_namespace', 'embedding_spaces', 'stores', 'pending_events', 'indexed_since_open', 'read_only']);
  expect(json.by_namespace).toEqual({ 'project/atlas': 2, shared: 1 });
});

test('doctor --json lists the malformed note and keeps it untouched', async () => {
  const before = readFileSync(join(vault, 'shared/broken.md'), 'utf8');
  const r = await cli('doctor', vault, '--json');
  expect(r.json().problems).toEqual([expect.objectContaining({ path: 'shared/broken.md', code: 'yaml_malformed' })]);
  expect(readFileSync(join(vault, 'shared/broken.md'), 'utf8')).toBe(before);
});

test('migrate --dry-run reports and writes nothing; migrate then adds fields only and is idempotent', async () => {
  const before = readFileSync(join(vault, 'project/atlas/pool.md'), 'utf8');
  const dry = (await cli('migrate', vault, '--dry-run', '--json')).json();
  expect(dry).toMatchObject({ dry_run: true, to_migrate: 1, migrated: 0 });
  expect(dry.skipped).toEqual([expect.objectContaining({ path: 'shared/broken.md' })]);
  expect(readFileSync(join(vault, 'project/atlas/pool.md'), 'utf8')).toBe(before);

  const done = (await cli('migrate', vault, '--json')).json();
  expect(done.migrated).toBe(1);
  const after = readFileSync(join(vault, 'project/atlas/pool.md'), 'utf8');
  expect(after).toMatch(/schema_version: 2/);
  expect(after).toMatch(/title: Pool sizing/);
  expect(after).toMatch(/The connection pool was too small/);
  expect(JSON.parse(readFileSync(join(vault, '.lithos/migrations/registry.json'), 'utf8')).current_version).toBe(2);
  expect((await cli('migrate', vault, '--json')).json().to_migrate).toBe(0);
});

test('migrate: a note that cannot be written is reported as skipped, and the notes after it still migrate', async () => {
  write('a/first.md', '---\ntitle: First\n---\nFirst note.\n');
  const rename = fs.promises.rename;
  // The disk refuses one file (a read-only file for a non-root user, a sync client holding it).
  const spy = jest.spyOn(fs.promises, 'rename').mockImplementation((from, to) =>
    String(to).endsWith('first.md') ? Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })) : rename(from, to),
  );
  try {
    const r = (await cli('migrate', vault, '--json')).json();
    expect(r.migrated).toBe(1);
    expect(r.skipped).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'a/first.md', reason: expect.stringMatching(/permission/i) })]));
  } finally {
    spy.mockRestore();
  }
  expect(readFileSync(join(vault, 'project/atlas/pool.md'), 'utf8')).toMatch(/schema_version: 2/);
  expect(readFileSync(join(vault, 'a/first.md'), 'utf8')).toBe('---\ntitle: First\n---\nFirst note.\n');
  expect((await cli('migrate', vault, '--json')).json().migrated).toBe(1); // run again: it finishes the job
});

test('a vault another process is writing: index is refused, search runs read-only', async () => {
  const lock = await acquireLock(join(vault, '.lithos'), { owner: 'plugin' });
  try {
    await expect(cli('index', vault)).rejects.toMatchObject({ code: 'vault_locked' });
    expect((await cli('search', vault, 'otters', '--json')).json().results[0].path).toBe('shared/broken.md');
    // read-only: the search indexed in memory but wrote no store next to the other process's lock
    expect(readdirSync(join(vault, '.lithos'))).toEqual(['lock.json']);
  } finally {
    await lock.release();
  }
});

test('a damaged config.json gives the defaults with a warning: commands still work, the file is left for the person', async () => {
  write('.lithos/config.json', '{ "embedding_spaces": [');
  const stderr: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true));
  try {
    expect((await cli('search', vault, 'otters', '--json')).json().results[0].path).toBe('shared/broken.md');
  } finally {
    spy.mockRestore();
  }
  expect(stderr.join('')).toMatch(/config\.json is not valid JSON .*Using the defaults/);
  expect(readFileSync(join(vault, '.lithos/config.json'), 'utf8')).toBe('{ "embedding_spaces": [');
});

test('temp files of interrupted writes are cleared by the next writer once an hour old; recent ones and read-only runs leave them', async () => {
  const old = new Date(Date.now() - 2 * 3600_000);
  const leftovers = ['.lithos/memory.sqlite.tmp-4242-abcdef', 'project/atlas/.pool.md.tmp-4242-abcdef'];
  for (const rel of leftovers) {
    write(rel, 'half a write');
    fs.utimesSync(join(vault, rel), old, old);
  }
  write('project/atlas/.Index.md.tmp-4243-0123ab', 'a write under way');
  const lock = await acquireLock(join(vault, '.lithos'), { owner: 'plugin' });
  try {
    await cli('search', vault, 'pool'); // read-only beside another writer: touches nothing
  } finally {
    await lock.release();
  }
  for (const rel of leftovers) expect(fs.existsSync(join(vault, rel))).toBe(true);
  expect((await cli('index', vault)).code).toBe(0);
  for (const rel of leftovers) expect(fs.existsSync(join(vault, rel))).toBe(false);
  expect(fs.existsSync(join(vault, 'project/atlas/.Index.md.tmp-4243-0123ab'))).toBe(true);
});

test('bad input exits non-zero with a one-line message: 1 for a failure, 2 for bad usage', async () => {
  const errs: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((s) => (errs.push(String(s)), true));
  try {
    expect(await run(['index', join(root, 'nope')])).toBe(1);
    expect(await run(['search', vault, 'x', '--mode', 'fuzzy'])).toBe(2);
    expect(await run(['search', vault, 'x', '--k', 'many'])).toBe(2);
    expect(await run(['frobnicate'])).toBe(2);
    expect(await run(['reembed', vault, '--space', 'nope'])).toBe(2); // errs[4]
    expect(await run(['stats', vault, 'extra'])).toBe(2); // errs[5]
    expect(await run(['search', vault, 'x', '--k', '-1'])).toBe(2); // errs[6]
    expect(await run(['audit', 'verify', vault, 'extra'])).toBe(2);
    expect(await run(['conflicts', 'scan', vault, 'extra'])).toBe(2);
    expect(await run(['search', vault, 'foo', '--limit', '3'])).toBe(2); // errs[9]
    expect(await run(['audit', vault])).toBe(2); // errs[10]
  } finally {
    spy.mockRestore();
  }
  expect(errs[0]).toMatch(/does not exist/);
  expect(errs[1]).toBe('lithos search: --mode must be one of lexical, vector, hybrid (got "fuzzy"). See lithos search --help.\n');
  expect(errs[2]).toMatch(/^lithos search: --k must be a whole number from 1 to 1000 \(got "many"\)/);
  expect(errs[3]).toMatch(/^lithos: unknown command "frobnicate" \(commands: index, search, /);
  expect(errs[4]).toMatch(/^lithos reembed: --space must be one of hash-ngram-v2-384, minilm-l6-v2 \(got "nope"\)/);
  expect(errs[5]).toMatch(/^lithos stats: unexpected "extra"; it takes <vault> \(quote a path that has spaces\)/);
  expect(errs[6]).toMatch(/^lithos search: --k needs a value, got the option-like "-1"; for a value that starts with a dash write --k=-1\./);
  expect(errs[9]).toBe('lithos search: --limit is an option of lithos receipts and lithos events, not of lithos search (options: --k, --mode, --namespace, --json). See lithos search --help.\n');
  expect(errs[10]).toMatch(/^lithos audit: name a subcommand: verify \(got "/);
  expect(errs.every((e) => e.trim().split('\n').length === 1)).toBe(true);
});

test('reembed into all-MiniLM without the model says where it looked and how to fix it', async () => {
  await expect(cli('reembed', vault, '--space', 'minilm-l6-v2')).rejects.toMatchObject({ code: 'model_missing', message: expect.stringContaining(join(vault, '.lithos', 'models')) });
});
