import { failure } from '../twins/error-code';
import { note } from '../engine/harness';
import { FIXTURE, HUMAN, OTHER, POOL_ID, SECRET_ID, openTools, type ToolHarness } from './fixture';
import type { ToolCaller } from '../../shared/tools/types';

/**
 * Read tools return only what the caller may see (shared/governance/gate.ts). A note it may not see is
 * "not found" everywhere: its id, path, title, tags and counts never appear.
 */

const USER_NOTE = 'me/Diary.md';
const files = { ...FIXTURE, [USER_NOTE]: note({ access_scope: 'user_private', tags: ['diary'] }, 'My private connection pool musings about zebra.\n[[Pool sizing]]\n') };

let t: ToolHarness;
beforeAll(async () => {
  t = await openTools(files);
  // An edge from a visible note to the private one: it must not surface for other agents either.
  await t.call('lithos_edge_create', { from: POOL_ID, to: SECRET_ID, type: 'related_to' }, OTHER);
});
afterAll(async () => {
  await t.engine.close();
});

const A: ToolCaller = { kind: 'agent', agent_id: 'agent-a' };

/** Every read tool, and how to pull paths out of its result. */
const READS: [tool: string, args: Record<string, unknown>, paths: (r: any) => string[]][] = [ // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results
  ['lithos_search', { query: 'connection pool zebra secret', k: 20 }, (r) => r.results.map((h: { path: string }) => h.path)],
  ['lithos_semantic', { query: 'connection pool zebra secret', k: 20 }, (r) => r.results.map((h: { path: string }) => h.path)],
  ['lithos_list', { limit: 200 }, (r) => r.notes.map((n: { path: string }) => n.path)],
  ['lithos_links', { id: POOL_ID, depth: 3 }, (r) => [...r.outgoing, ...r.incoming].map((x: { path: string }) => x.path)],
  ['lithos_related', { id: POOL_ID, k: 50 }, (r) => r.related.map((x: { path: string }) => x.path)],
  ['lithos_edge_list', {}, (r) => r.edges.flatMap((e: { from_path: string; to_path: string }) => [e.from_path, e.to_path])],
  ['lithos_tags', {}, (r) => r.tags.map((x: { tag: string }) => x.tag)],
];

const SECRET_PATH = 'agent/agent-b/Secret plan.md';

describe.each([
  ['another agent', A, { secret: false, diary: false }],
  ['the owning agent', OTHER, { secret: true, diary: false }],
  ['the person', HUMAN, { secret: true, diary: true }],
] as const)('%s', (_who, caller, sees) => {
  test.each(READS)('%s shows gated notes only to those who may see them', async (tool, args, pathsOf) => {
    const found = pathsOf(await t.call(tool, args, caller));
    const secretMark = tool === 'lithos_tags' ? 'secret' : SECRET_PATH;
    const diaryMark = tool === 'lithos_tags' ? 'diary' : USER_NOTE;
    expect(found.includes(secretMark)).toBe(sees.secret);
    // The diary only links to Pool sizing, so it shows in graph tools only through backlinks; search/list/tags show it directly.
    if (!['lithos_edge_list'].includes(tool)) expect(found.includes(diaryMark)).toBe(sees.diary);
  });

  test('lithos_read by id, path and title: gated notes are not_found, with the same message as a missing note', async () => {
    for (const ref of [{ id: SECRET_ID }, { path: SECRET_PATH }, { title: 'Secret plan' }]) {
      if (sees.secret) expect((await t.call('lithos_read', ref, caller)).path).toBe(SECRET_PATH);
      else expect((await failure(t.call('lithos_read', ref, caller))).code).toBe('not_found');
    }
    if (!sees.diary) expect((await failure(t.call('lithos_read', { path: USER_NOTE }, caller))).message).toBe(`No note at "${USER_NOTE}". Use lithos_search or lithos_list to find notes.`);
  });

  test('lithos_stats counts only visible notes', async () => {
    const s = await t.call('lithos_stats', {}, caller);
    expect(s.notes).toBe(3 + (sees.secret ? 1 : 0) + (sees.diary ? 1 : 0));
    expect(Object.keys(s.by_namespace).includes('agent/agent-b')).toBe(sees.secret);
    expect(s.edges).toBe(sees.secret ? 1 : 0);
  });
});

test('an agent cannot write over, delete, or link to a note it may not see', async () => {
  const before = t.snapshot();
  expect((await failure(t.call('lithos_write', { id: SECRET_ID, content: 'mine now' }, A))).code).toBe('not_found');
  // By path: agent-b's namespace is refused whether or not a note is there, so existence does not leak.
  const taken = await failure(t.call('lithos_write', { path: SECRET_PATH, content: 'mine now' }, A));
  const free = await failure(t.call('lithos_write', { path: 'agent/agent-b/Nothing here.md', content: 'mine now' }, A));
  expect([taken.code, free.code]).toEqual(['forbidden', 'forbidden']);
  expect(taken.message.replace(SECRET_PATH, '<path>')).toBe(free.message.replace('agent/agent-b/Nothing here.md', '<path>'));
  expect((await failure(t.call('lithos_delete', { id: SECRET_ID }, A))).code).toBe('not_found');
  expect((await failure(t.call('lithos_edge_create', { from: POOL_ID, to: SECRET_ID, type: 'supports' }, A))).code).toBe('not_found');
  expect(t.snapshot()).toEqual(before);
});

test('a [[link]] to a note the caller may not see reads as unresolved and broken, exactly like a link to no note', async () => {
  const w = await t.call('lithos_write', { title: 'Probe', content: '[[Secret plan]] [[me/Diary]] [[No such note]] [[Pool sizing]]' }, A);
  const read = await t.call('lithos_read', { id: w.id }, A);
  expect(read.links).toEqual([
    { raw: '[[Secret plan]]', target: 'Secret plan', resolved: false },
    { raw: '[[me/Diary]]', target: 'me/Diary', resolved: false },
    { raw: '[[No such note]]', target: 'No such note', resolved: false },
    { raw: '[[Pool sizing]]', target: 'Pool sizing', resolved: true },
  ]);
  const brokenOf = (r: { broken: { from: string; target: string }[] }) => r.broken.filter((b) => b.from === w.path).map((b) => b.target);
  expect(brokenOf(await t.call('lithos_links', { id: w.id }, A))).toEqual(['Secret plan', 'me/Diary', 'No such note']);
  // The owner, and the person, see where their links lead.
  expect((await t.call('lithos_read', { id: w.id }, OTHER)).links[0].resolved).toBe(true);
  expect(brokenOf(await t.call('lithos_links', { id: w.id }, HUMAN))).toEqual(['No such note']);
  await t.call('lithos_delete', { id: w.id, expected_version: w.version }, A);
});
