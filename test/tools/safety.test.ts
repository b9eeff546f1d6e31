import { mkdtempSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEngine } from '../../shared/engine';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { NodeVault } from '../../bridge/node-vault';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { loadSql } from '../twins/sql';
import { failure } from '../twins/error-code';
import { AGENT, HUMAN, POOL_ID, openTools, type ToolHarness } from './fixture';

/** Bad arguments, unsafe paths and stale versions are refused with a clear LithosError, and nothing is written. */

let t: ToolHarness;
beforeEach(async () => {
  t = await openTools();
});
afterEach(async () => {
  await t.engine.close();
});

/** The version on disk now (an agent reads it with lithos_read). */
const versionOf = async (path: string): Promise<string> => (await t.engine.services.notes.parse(path)).contentHash;

async function refused(tool: string, args: unknown, code: string, message?: RegExp): Promise<void> {
  const before = t.snapshot();
  const err = await failure(t.call(tool, args));
  expect(err.code).toBe(code);
  if (message) expect(err.message).toMatch(message);
  expect(t.snapshot()).toEqual(before);
}

describe('a new note must have a name every system can hold (Windows, Obsidian, a synced copy)', () => {
  test.each([
    ['notes/Foo:bar.md', /contains ":"/],
    ['notes/x?.md', /contains "\?"/],
    ['notes/a*b.md', /contains "\*"/],
    ['notes/[[x]].md', /contains "\["/],
    ['notes/#tag.md', /contains "#"/],
    ['notes/CON.md', /reserves for a device/],
    ['aux/Plan.md', /reserves for a device/],
    ['proj./x.md', /ends in a dot or a space/],
    ['dir /y.md', /ends in a dot or a space/],
  ])('%s is refused', async (path, message) => {
    await refused('lithos_write', { path, title: 'T', content: 'x\n' }, 'invalid_argument', message);
  });

  test('a title that is a device name gets a file name Windows can hold; a title ending in dots loses them', async () => {
    expect((await t.call('lithos_write', { title: 'CON', content: 'x\n' })) as { path: string }).toMatchObject({ path: 'CON (note).md' });
    expect((await t.call('lithos_write', { title: 'Wait...', content: 'x\n' })) as { path: string }).toMatchObject({ path: 'Wait.md' });
  });
});

describe('bad arguments → invalid_argument naming the fields; the vault unchanged', () => {
  test.each([
    ['lithos_write', { title: 42, content: 'x' }, /title/],
    ['lithos_write', { title: 'T', content: 'x', confidence: 2 }, /confidence/],
    ['lithos_write', { title: 'T', content: 'x', note_type: 'rumour' }, /note_type/],
    ['lithos_write', { title: 'T', content: 'x', namespace: '../up' }, /namespace/],
    ['lithos_write', { title: 'T', content: 'x', tittle: 'typo' }, /tittle/],
    ['lithos_write', { id: POOL_ID, path: 'a.md', content: 'x' }, /id or path, not both/],
    ['lithos_write', { content: 'no title' }, /title/],
    // Date.parse takes "1" as the year 2001 and "March 7, 2026" by the machine's locale: not ISO, refused.
    ['lithos_list', { since: '1' }, /since: must be an ISO 8601/],
    ['lithos_list', { since: 'March 7, 2026' }, /since: must be an ISO 8601/],
    ['lithos_task_list', { since: '1' }, /since: must be an ISO 8601/],
    ['lithos_list', { since: '2026-02-30' }, /since: must be an ISO 8601/],
    ['lithos_list', { since: '2026-01-31T09:00' }, /since: must be an ISO 8601 date or a date-time with its offset/],
    ['lithos_write', { title: 'New', content: '---\ntitle: x\n---\nbody' }, /without a frontmatter block/],
    ['lithos_write', { path: 'new/Note.md', title: 'Note' }, /needs content/],
    ['lithos_read', {}, /exactly one of id, path or title/],
    ['lithos_read', { id: POOL_ID, path: 'x.md' }, /exactly one/],
    ['lithos_delete', { id: 5 }, /id/],
    ['lithos_search', { query: '' }, /query/],
    ['lithos_search', { query: 'x', k: 0 }, /k/],
    ['lithos_search', { query: 'x', mode: 'vector' }, /mode/],
    ['lithos_list', { since: 'last tuesday' }, /since/],
    ['lithos_list', { cursor: 'bogus' }, /cursor/],
    ['lithos_links', { id: POOL_ID, depth: 4 }, /depth/],
    ['lithos_edge_create', { from: POOL_ID, to: POOL_ID, type: 'supports' }, /two different notes/],
    ['lithos_edge_create', { from: POOL_ID, to: 'project/atlas/Index.md', type: 'Not A Type' }, /type/],
    ['lithos_edge_update', { edge_id: 'e1' }, /at least one field/],
    ['lithos_stats', { extra: true }, /extra/],
  ])('%s %j', async (tool, args, message) => {
    await refused(tool, args, 'invalid_argument', message);
  });

  test('every field at fault is listed at once, in data.issues', async () => {
    const err = await failure(t.call('lithos_write', { title: 1, confidence: -1, status: 'gone' }));
    expect(err.data.issues).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'title' }), expect.objectContaining({ field: 'confidence' }), expect.objectContaining({ field: 'status' })]));
  });

  test('an unknown tool is not_found; a handler failure that is not a LithosError becomes internal', async () => {
    expect((await failure(t.call('lithos_nope', {}))).code).toBe('not_found');
    const tools = createDispatcher(TOOL_CATALOG, () => {
      throw new TypeError('boom');
    });
    const err = await failure(tools.call('lithos_stats', {}, AGENT));
    expect(err.toJSON()).toEqual({ code: 'internal', message: 'boom', data: {} });
  });

  test('writes need an agent identity', async () => {
    const before = t.snapshot();
    const err = await failure(t.call('lithos_write', { title: 'T', content: 'x' }, { kind: 'agent', agent_id: null }));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toMatch(/--agent/);
    expect(t.snapshot()).toEqual(before);
  });
});

describe('path safety: write, read and delete stay inside the notes of the vault', () => {
  const TRAVERSAL: [path: string, code: string][] = [
    ['../x.md', 'path_outside_vault'],
    ['/etc/x.md', 'path_outside_vault'],
    ['C:/x.md', 'path_outside_vault'],
    ['%2e%2e/x.md', 'path_outside_vault'],
    ['a%2f..%2fx.md', 'path_outside_vault'],
    ['a/../../x.md', 'path_outside_vault'],
    ['a\\..\\x.md', 'path_outside_vault'],
    ['a/x\u0000.md', 'path_outside_vault'],
    ['.obsidian/app.json', 'path_outside_vault'],
    ['.obsidian/x.md', 'path_outside_vault'],
    ['.lithos/memory.sqlite', 'path_outside_vault'],
    ['.trash/x.md', 'path_outside_vault'],
    ['notes/.hidden.md', 'path_outside_vault'],
    ['x.txt', 'invalid_argument'],
    ['notes/x', 'invalid_argument'],
    ['sur\uD800.md', 'invalid_argument'],
  ];

  test.each(TRAVERSAL)('lithos_write path %j → %s, nothing written', async (path, code) => {
    await refused('lithos_write', { path, title: 'T', content: 'x' }, code);
  });

  test.each(TRAVERSAL)('lithos_read / lithos_delete path %j → %s', async (path, code) => {
    await refused('lithos_read', { path }, code);
    await refused('lithos_delete', { path }, code);
  });

  test('a symlink leading out of the vault is refused by the Node vault adapter; nothing is written outside', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lithos-tools-link-'));
    try {
      const vault = join(root, 'vault');
      const outside = join(root, 'outside');
      mkdirSync(vault);
      mkdirSync(outside);
      writeFileSync(join(outside, 'victim.md'), 'outside\n');
      symlinkSync(outside, join(vault, 'escape'), 'dir');
      const engine = await MemoryEngine.open({ vault: new NodeVault(vault), blobs: new MemoryBlobStore(), sql: await loadSql() });
      await engine.reconcile();
      const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: engine }));
      for (const path of ['escape/new.md', 'escape/victim.md']) {
        expect((await failure(tools.call('lithos_write', { path, title: 'T', content: 'x' }, AGENT))).code).toBe('path_outside_vault');
      }
      expect((await failure(tools.call('lithos_read', { path: 'escape/victim.md' }, AGENT))).code).toBe('not_found');
      expect(readdirSync(outside)).toEqual(['victim.md']);
      expect(readdirSync(vault)).toEqual(['escape']);
      await engine.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('expected_version: an agent never silently overwrites an edit made since it read', () => {
  test('a stale version is a conflict carrying the current version and a short diff; the note is unchanged', async () => {
    const read = await t.call('lithos_read', { id: POOL_ID });
    t.vault.put('project/atlas/Pool sizing.md', t.vault.text('project/atlas/Pool sizing.md')!.replace('40 connections', '60 connections'), true);
    const human = t.vault.text('project/atlas/Pool sizing.md');
    const err = await failure(t.call('lithos_write', { id: POOL_ID, content: read.content.replace('40 connections', '50 connections'), expected_version: read.version }));
    expect(err.code).toBe('conflict');
    const current = (await t.call('lithos_read', { id: POOL_ID })).version;
    expect(err.data).toMatchObject({
      path: 'project/atlas/Pool sizing.md',
      current_version: current,
      diff: { current_lines: ['Raise the pool to 60 connections.'], your_lines: ['Raise the pool to 50 connections.'], truncated: false },
    });
    expect(err.message).toContain(current);
    expect(t.vault.text('project/atlas/Pool sizing.md')).toBe(human);
    // Retrying with the current version goes through: to the person, whose edit it now is (the trust boundary).
    const ok = await t.call('lithos_write', { id: POOL_ID, content: 'merged', expected_version: current });
    expect(ok).toMatchObject({ status: 'pending', why: 'person_note' });
    const accepted = await t.call('lithos_proposal_accept', { proposal_id: ok.proposal_id }, HUMAN);
    expect(accepted.proposal.result.previous_version).toBe(current);
  });

  test('delete with a stale version is a conflict too', async () => {
    const read = await t.call('lithos_read', { id: POOL_ID });
    t.vault.put('project/atlas/Pool sizing.md', 'edited by a human\n', true);
    await refused('lithos_delete', { id: POOL_ID, expected_version: read.version }, 'conflict');
  });

  test('creating where a note already exists (title collision) is a conflict, not an overwrite', async () => {
    await refused('lithos_write', { title: 'Pool sizing', namespace: 'project/atlas', content: 'other' }, 'conflict', /already exists/);
  });

  test('a frontmatter block a human broke is never rewritten', async () => {
    t.vault.put('project/atlas/Index.md', '---\ntags: [unclosed\n---\nbody\n', true);
    await t.engine.settle();
    // The person's note: agents may change it at once here, so the writer's own refusal is reached.
    await t.engine.services.governance.policy.set({ person_notes: 'allow' });
    await refused('lithos_write', { path: 'project/atlas/Index.md', content: 'new body', expected_version: await versionOf('project/atlas/Index.md') }, 'invalid_argument', /not a valid YAML mapping/);
  });
});

describe('what a note can hold', () => {
  test('a NUL character in the content is refused: the file would read back as binary and could not be edited again', async () => {
    const before = t.snapshot();
    await refused('lithos_write', { title: 'Nul', content: 'before\u0000after' }, 'invalid_argument', /NUL character/);
    await refused('lithos_write', { path: 'project/atlas/Pool sizing.md', content: '\u0000', expected_version: await versionOf('project/atlas/Pool sizing.md') }, 'invalid_argument', /NUL character/);
    expect(t.snapshot()).toEqual(before);
  });

  test.each([
    ['a long accented title', 'é'.repeat(150)],
    ['a long emoji title', '🦊'.repeat(80)],
    ['a long CJK title', '記憶'.repeat(70)],
  ])('%s becomes a file name short enough for any disk (≤ 180 bytes, whole characters), readable back by its path', async (_what, title) => {
    const r = await t.call('lithos_write', { title, content: 'x' });
    const name = r.path.replace(/\.md$/, '');
    expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(180);
    expect(title.startsWith(name)).toBe(true);
    expect((await t.call('lithos_read', { path: r.path })).id).toBe(r.id);
  });

  test.each([
    ['../../../evil', 'evil.md'],
    ['. . .hidden', 'hidden.md'],
    ['sur\uD800rogate', 'sur\uFFFDrogate.md'],
  ])('title %j is written as %j at the vault root, nowhere else', async (title, path) => {
    const r = await t.call('lithos_write', { title, content: 'x' });
    expect(r.path).toBe(path);
    expect((await t.call('lithos_read', { path: r.path })).id).toBe(r.id);
  });

  test('a NUL in a field is escaped by YAML, so the note stays text and can be written again', async () => {
    const r = await t.call('lithos_write', { title: 'Odd tag', content: 'ok', tags: ['a\u0000b'] });
    expect(t.vault.text(r.path)).toContain('"a\\0b"');
    await t.call('lithos_write', { id: r.id, content: 'edited', expected_version: r.version });
  });
});
