import { MemoryStore, TOMBSTONE_RETENTION_MS, DEFAULT_NODE_STATS, type EdgeInput } from '../../shared/stores/memory-store';
import { LithosError } from '../../shared/errors';
import { env, DAY } from './helpers';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const C = 'cccccccc-0000-4000-8000-000000000003';

function edge(from: string, to: string, over: Partial<EdgeInput> = {}): EdgeInput {
  return {
    from_id: from,
    to_id: to,
    type: 'supports',
    weight: 0.8,
    namespace: 'project/lithos',
    provenance_actor: 'agent-7',
    provenance_type: 'agent',
    evidence: { quote: 'see section 2', score: 0.9 },
    conflict_state: null,
    ...over,
  };
}

async function openWithNotes() {
  const e = await env();
  const { store, warnings } = await MemoryStore.open(e);
  await store.nodes.register({ node_id: A, path: 'a.md', id_source: 'frontmatter', content_hash: 'h-a' });
  await store.nodes.register({ node_id: B, path: 'notes/b.md', id_source: 'registry', content_hash: 'h-b' });
  await store.nodes.register({ node_id: C, path: 'c.md', id_source: 'registry', content_hash: 'h-c' });
  return { e, store, warnings };
}

describe('MemoryStore: node registry', () => {
  it('opens empty with no warnings when nothing exists yet', async () => {
    const e = await env();
    const { store, warnings } = await MemoryStore.open(e);
    expect(warnings).toEqual([]);
    expect(store.counts()).toEqual({ nodes: 0, tombstones: 0, edges: 0, stats: 0, coactivation: 0 });
  });

  it('registers nodes and finds them by id and by path', async () => {
    const { store } = await openWithNotes();
    expect(store.nodes.byId(A)).toEqual({ node_id: A, path: 'a.md', id_source: 'frontmatter', content_hash: 'h-a', deleted_at: null, last_path: null });
    expect(store.nodes.byPath('notes/b.md')?.node_id).toBe(B);
    expect(store.nodes.byPath('missing.md')).toBeNull();
    expect(store.nodes.live().map((n) => n.path)).toEqual(['a.md', 'c.md', 'notes/b.md']);
  });

  it('re-registering a node updates its hash and path', async () => {
    const { store } = await openWithNotes();
    await store.nodes.register({ node_id: A, path: 'a2.md', id_source: 'frontmatter', content_hash: 'h-a2' });
    expect(store.nodes.byId(A)?.content_hash).toBe('h-a2');
    expect(store.nodes.byPath('a.md')).toBeNull();
    expect(store.counts().nodes).toBe(3);
  });

  it('refuses to register a path another live node holds', async () => {
    const { store } = await openWithNotes();
    await expect(store.nodes.register({ node_id: 'other', path: 'a.md', id_source: 'registry', content_hash: null })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(store.nodes.byPath('a.md')?.node_id).toBe(A);
  });

  it('rename moves the key: id, edges and stats follow the note', async () => {
    const { store } = await openWithNotes();
    const e1 = await store.edges.upsert(edge(A, B));
    await store.stats.update(A, { salience: 0.9, retrieval_count: 4 });
    await store.nodes.move(A, 'archive/a.md');
    expect(store.nodes.byPath('a.md')).toBeNull();
    expect(store.nodes.byPath('archive/a.md')?.node_id).toBe(A);
    expect(store.edges.find({ from: A })).toEqual([e1]);
    expect(store.stats.get(A)).toMatchObject({ salience: 0.9, retrieval_count: 4 });
  });

  it('refuses a move onto another live note, and a move of an unknown node', async () => {
    const { store } = await openWithNotes();
    await expect(store.nodes.move(A, 'c.md')).rejects.toMatchObject({ code: 'conflict' });
    await expect(store.nodes.move('nope', 'x.md')).rejects.toBeInstanceOf(LithosError);
    expect(store.nodes.byId(A)?.path).toBe('a.md');
  });

  it('tombstones keep edges and stats; a returning note is found by id, path or content and revived', async () => {
    const { e, store } = await openWithNotes();
    await store.edges.upsert(edge(A, B));
    await store.stats.update(A, { salience: 0.7 });
    const at = e.clock.now();
    await store.nodes.tombstone(A, at);

    expect(store.nodes.byPath('a.md')).toBeNull();
    expect(store.nodes.tombstones()).toEqual([{ node_id: A, path: null, id_source: 'frontmatter', content_hash: 'h-a', deleted_at: at, last_path: 'a.md' }]);
    expect(store.counts()).toMatchObject({ nodes: 2, tombstones: 1, edges: 1, stats: 1 });
    expect(store.nodes.findTombstone({ nodeId: A })?.node_id).toBe(A);
    expect(store.nodes.findTombstone({ path: 'a.md' })?.node_id).toBe(A);
    expect(store.nodes.findTombstone({ contentHash: 'h-a' })?.node_id).toBe(A);
    expect(store.nodes.findTombstone({ path: 'notes/b.md' })).toBeNull(); // B is live, not a tombstone
    expect(store.nodes.findTombstone({})).toBeNull();

    await store.nodes.revive(A, 'back/a.md', 'h-a');
    expect(store.nodes.byId(A)).toMatchObject({ path: 'back/a.md', deleted_at: null });
    expect(store.nodes.tombstones()).toEqual([]);
    expect(store.edges.find({ from: A })).toHaveLength(1);
    expect(store.stats.get(A).salience).toBe(0.7);
  });

  it('tombstoning twice is a no-op; tombstoning an unknown node is not_found', async () => {
    const { store } = await openWithNotes();
    await store.nodes.tombstone(A, 1000);
    await store.nodes.tombstone(A, 2000);
    expect(store.nodes.byId(A)).toMatchObject({ deleted_at: 1000, last_path: 'a.md' });
    await expect(store.nodes.tombstone('nope', 1)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('purges tombstones only after the retention period, with their edges, stats and co-activation', async () => {
    const { e, store } = await openWithNotes();
    await store.edges.upsert(edge(A, B));
    await store.edges.upsert(edge(C, A, { type: 'related_to' }));
    await store.edges.upsert(edge(B, C, { type: 'depends_on' }));
    await store.stats.update(A, { salience: 0.2 });
    await store.coactivation.bump(A, B, 'ns', e.clock.now());
    await store.coactivation.bump(B, C, 'ns', e.clock.now());
    await store.nodes.tombstone(A, e.clock.now());

    e.clock.advance(29 * DAY);
    expect(await store.nodes.purgeTombstones(e.clock.now() - TOMBSTONE_RETENTION_MS)).toBe(0);
    expect(store.counts().tombstones).toBe(1);

    e.clock.advance(1 * DAY + 1);
    expect(await store.nodes.purgeTombstones(e.clock.now() - TOMBSTONE_RETENTION_MS)).toBe(1);
    expect(store.nodes.byId(A)).toBeNull();
    expect(store.edges.find({}).map((x) => [x.from_id, x.to_id])).toEqual([[B, C]]);
    expect(store.coactivation.of(B).map((x) => x.other)).toEqual([C]);
    expect(store.counts()).toEqual({ nodes: 2, tombstones: 0, edges: 1, stats: 0, coactivation: 1 });
  });
});

describe('MemoryStore: edges', () => {
  it('round-trips every column, including JSON evidence', async () => {
    const { e, store } = await openWithNotes();
    const row = await store.edges.upsert(edge(A, B, { conflict_state: 'disputed' }));
    expect(row).toEqual({
      ...edge(A, B, { conflict_state: 'disputed' }),
      edge_id: expect.any(String),
      created_at: e.clock.now(),
      updated_at: e.clock.now(),
    });
    expect(store.edges.find({ from: A })).toEqual([row]);
  });

  it('upserting the same (from, to, type) updates the edge instead of adding one', async () => {
    const { e, store } = await openWithNotes();
    const first = await store.edges.upsert(edge(A, B, { weight: 0.3 }));
    e.clock.advance(5000);
    const second = await store.edges.upsert(edge(A, B, { weight: 0.6, provenance_type: 'human', provenance_actor: 'me' }));
    expect(second.edge_id).toBe(first.edge_id);
    expect(second.created_at).toBe(first.created_at);
    expect(second.updated_at).toBe(first.updated_at + 5000);
    expect(store.edges.find({})).toEqual([second]);
    expect(second).toMatchObject({ weight: 0.6, provenance_type: 'human', provenance_actor: 'me' });
  });

  it('a different type between the same notes is a separate edge; any non-empty type is accepted', async () => {
    const { store } = await openWithNotes();
    await store.edges.upsert(edge(A, B));
    await store.edges.upsert(edge(A, B, { type: 'contradicts' }));
    await store.edges.upsert(edge(A, B, { type: 'cites-experiment' }));
    expect(store.edges.find({ from: A }).map((x) => x.type).sort()).toEqual(['cites-experiment', 'contradicts', 'supports']);
  });

  it('filters by from, to, type and namespace together', async () => {
    const { store } = await openWithNotes();
    await store.edges.upsert(edge(A, B));
    await store.edges.upsert(edge(A, C, { namespace: 'other' }));
    await store.edges.upsert(edge(B, C, { type: 'related_to' }));
    expect(store.edges.find({ to: C }).map((x) => x.from_id).sort()).toEqual([A, B]);
    expect(store.edges.find({ from: A, namespace: 'other' }).map((x) => x.to_id)).toEqual([C]);
    expect(store.edges.find({ type: 'related_to' }).map((x) => x.from_id)).toEqual([B]);
    expect(store.edges.find({ from: A, type: 'related_to' })).toEqual([]);
  });

  it('updates an edge by id, and refuses an id that would duplicate another edge', async () => {
    const { store } = await openWithNotes();
    const ab = await store.edges.upsert(edge(A, B));
    const ac = await store.edges.upsert(edge(A, C));
    const moved = await store.edges.upsert({ ...edge(A, C, { type: 'depends_on' }), edge_id: ac.edge_id });
    expect(moved.edge_id).toBe(ac.edge_id);
    expect(store.edges.find({ to: C }).map((x) => x.type)).toEqual(['depends_on']);
    await expect(store.edges.upsert({ ...edge(A, B), edge_id: ac.edge_id })).rejects.toMatchObject({ code: 'conflict', data: { edge_id: ab.edge_id } });
  });

  it('deletes edges and rejects malformed ones before writing anything', async () => {
    const { store } = await openWithNotes();
    const ab = await store.edges.upsert(edge(A, B));
    await store.edges.delete(ab.edge_id);
    expect(store.edges.find({})).toEqual([]);
    await expect(store.edges.upsert(edge(A, B, { type: '' }))).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(store.edges.upsert(edge(A, B, { weight: NaN }))).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(store.edges.upsert(edge(A, B, { provenance_type: 'robot' as never }))).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(store.counts().edges).toBe(0);
  });
});

describe('MemoryStore: stats and co-activation', () => {
  it('returns defaults for a node nothing is known about', async () => {
    const { store } = await openWithNotes();
    expect(store.stats.get(B)).toEqual({ node_id: B, ...DEFAULT_NODE_STATS });
    expect(store.stats.get(B).salience).toBe(0.5);
    expect(store.counts().stats).toBe(0);
  });

  it('merges patches and round-trips every field', async () => {
    const { store } = await openWithNotes();
    await store.stats.update(A, { salience: 0.8, per_queryclass_priors: { howto: 0.7 } });
    const s = await store.stats.update(A, {
      retrieval_count: 3,
      last_retrieved_at: 111,
      last_used_at: 222,
      use_count: 4,
      ignored_count: 1,
      misleading_count: 2,
      spaced_rep_strength: 2.5,
      salience: undefined,
    });
    const expected = {
      node_id: A, salience: 0.8, retrieval_count: 3, last_retrieved_at: 111, last_used_at: 222, use_count: 4, ignored_count: 1,
      misleading_count: 2, spaced_rep_strength: 2.5, per_queryclass_priors: { howto: 0.7 },
    };
    expect(s).toEqual(expected);
    expect(store.stats.get(A)).toEqual(expected);
    await expect(store.stats.update(A, { retrieval_count: -1 })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(store.stats.update(A, { per_queryclass_priors: { x: 'high' as unknown as number } })).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('stores a pair once whichever order it is given in', async () => {
    const { store } = await openWithNotes();
    await store.coactivation.bump(B, A, 'ns', 100);
    await store.coactivation.bump(A, B, 'ns', 300);
    await store.coactivation.bump(B, A, 'ns', 200);
    await store.coactivation.bump(A, B, 'other', 50);
    expect(store.coactivation.of(A)).toEqual([
      { other: B, namespace: 'ns', count: 3, last_at: 300 },
      { other: B, namespace: 'other', count: 1, last_at: 50 },
    ]);
    expect(store.coactivation.of(B)[0]).toEqual({ other: A, namespace: 'ns', count: 3, last_at: 300 });
    expect(store.counts().coactivation).toBe(2);
    await expect(store.coactivation.bump(A, A, 'ns', 1)).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});
