import type { Harness } from '../engine/harness';
import { CONCEPT_MIN_COACTIVATION, MEMBERS_END, MEMBERS_START, findClusters } from '../../shared/learning/concepts';
import { LAG, OTHER, PRIVATE, auditActions, coactivate, openFixture } from './consolidation-fixture';

/**
 * Concepts: clusters of notes used together (co-activation ≥ 3 for every pair, at least 5 notes) that are
 * also dense in embedding space become one `note_type: concept` note, linked member → concept with
 * `is_example_of` edges; re-running finds the same concept.
 */

let h: Harness;
beforeEach(async () => {
  h = await openFixture();
});
afterEach(async () => {
  await h.engine.close();
});

const run = () => h.engine.services.learning.consolidator.run();
const concepts = () => h.engine.services.notes.notes().filter((n) => n.cached.meta.note_type === 'concept');
const ids = LAG.map((n) => n.id);

describe('concept formation', () => {
  test('six notes co-activated three times pairwise become one concept note with is_example_of edges from each member', async () => {
    await coactivate(h, ids, CONCEPT_MIN_COACTIVATION);
    const r = await run();
    expect(r.concepts_created).toHaveLength(1);
    const [c] = concepts();
    expect(c.cached.meta).toMatchObject({ note_type: 'concept', namespace: 'project/streams', access_scope: 'shared', title: 'kafka and lag' });
    expect(c.path).toBe('concepts/kafka and lag.md');
    const edges = h.engine.services.learning.memory.edges.find({ to: c.nodeId, type: 'is_example_of' });
    expect(edges.map((e) => e.from_id).sort()).toEqual([...ids].sort());
    expect(edges.every((e) => e.provenance_type === 'rule' && e.weight === 0.7)).toBe(true);
    const body = (await h.engine.services.notes.parse(c.path)).body;
    expect(body).toContain(MEMBERS_START);
    for (const n of LAG) expect(body).toContain(`[[${n.path.replace(/\.md$/, '')}|`);
    const audit = await auditActions(h);
    expect(audit.filter((a) => a.action === 'concept.update')).toEqual([expect.objectContaining({ target: c.nodeId, data: expect.objectContaining({ created: true, members: 6 }) })]);
    expect(audit.find((a) => a.action === 'note.write' && a.target === c.nodeId)).toMatchObject({ actor: { kind: 'rule', id: 'concepts' } });
  });

  test('re-running on the same data changes nothing: same concept, no duplicate, no new edges or writes', async () => {
    await coactivate(h, ids, 3);
    await run();
    const before = h.vault.text(concepts()[0].path);
    const edges = h.engine.services.learning.memory.counts().edges;
    const second = await run();
    expect(second).toMatchObject({ concepts_created: [], concepts_updated: [], concept_members_linked: 0 });
    expect(concepts()).toHaveLength(1);
    expect(h.vault.text(concepts()[0].path)).toBe(before);
    expect(h.engine.services.learning.memory.counts().edges).toBe(edges);
  });

  test('a grown cluster updates the same concept (matched by member overlap): the new member is linked and listed, text outside the managed block kept', async () => {
    await coactivate(h, ids.slice(0, 5), 3);
    await run();
    const [c] = concepts();
    await h.engine.services.notes.writeNote({ path: c.path, mode: 'update', content: `My own notes on lag.\n\n${(await h.engine.services.notes.parse(c.path)).body}`, fields: {}, actor: null });
    await coactivate(h, ids, 3); // the sixth joins (pairs among the first five grow to 6, which is fine)
    const r = await run();
    expect(r.concepts_created).toEqual([]);
    expect(r.concepts_updated).toEqual([c.nodeId]);
    expect(concepts()).toHaveLength(1);
    expect(h.engine.services.learning.memory.edges.find({ to: c.nodeId, type: 'is_example_of' }).map((e) => e.from_id).sort()).toEqual([...ids].sort());
    const body = (await h.engine.services.notes.parse(c.path)).body;
    expect(body.startsWith('My own notes on lag.\n')).toBe(true);
    expect(body).toContain('Lag case a6|');
    expect(body.indexOf(MEMBERS_END)).toBeGreaterThan(0);
  });

  // Membership edges are rule edges and decay; a cluster still used together must not lose them, and a
  // concept whose members all faded must not be created a second time ("kafka and lag 2").
  test('a cluster seen again renews its members\' edges; one whose edges all faded finds its concept again, not a second one', async () => {
    await coactivate(h, ids, 3);
    await run();
    const [c] = concepts();
    const decayed = async (weight: number) => {
      for (const e of h.engine.services.learning.memory.edges.find({ to: c.nodeId, type: 'is_example_of' })) await h.engine.services.learning.memory.edges.upsert({ ...e, weight });
    };
    await decayed(0.3);
    await run();
    expect(h.engine.services.learning.memory.edges.find({ to: c.nodeId, type: 'is_example_of' }).map((e) => e.weight)).toEqual(ids.map(() => 0.7));
    for (const e of h.engine.services.learning.memory.edges.find({ to: c.nodeId, type: 'is_example_of' })) await h.engine.services.learning.memory.edges.delete(e.edge_id); // pruned by decay
    const r = await run();
    expect(r.concepts_created).toEqual([]);
    expect(concepts().map((n) => n.path)).toEqual(['concepts/kafka and lag.md']);
    expect(h.engine.services.learning.memory.edges.find({ to: c.nodeId, type: 'is_example_of' }).map((e) => e.from_id).sort()).toEqual([...ids].sort());
  });

  test('below the thresholds nothing forms: pairs used together only twice, or only four notes', async () => {
    await coactivate(h, ids, 2);
    expect((await run()).concepts_created).toEqual([]);
    await coactivate(h, ids.slice(0, 4), 3);
    expect((await run()).concepts_created).toEqual([]);
    expect(concepts()).toEqual([]);
  });

  test('a co-activation cluster that is not dense in embedding space (unrelated notes) is rejected', async () => {
    const unrelated = [...OTHER.map((n) => n.id)].slice(0, 5);
    await coactivate(h, unrelated, 3);
    const r = await run();
    expect(r.concepts_created).toEqual([]);
    const entry = (await auditActions(h)).find((a) => a.action === 'consolidate');
    expect(entry?.data).toMatchObject({ rejected_sparse_clusters: 1 });
  });

  test('private notes never join a concept: a cluster needing them is not formed', async () => {
    await coactivate(h, [...ids.slice(0, 4), PRIVATE.id], 3);
    expect((await run()).concepts_created).toEqual([]);
  });
});

describe('findClusters (greedy cliques over pairs with count ≥ 3)', () => {
  const graph = (pairs: [string, string, number][]): Map<string, Map<string, number>> => {
    const m = new Map<string, Map<string, number>>();
    for (const [a, b, c] of pairs) {
      if (!m.has(a)) m.set(a, new Map());
      if (!m.has(b)) m.set(b, new Map());
      m.get(a)!.set(b, c);
      m.get(b)!.set(a, c);
    }
    return m;
  };
  const clique = (nodes: string[], c = 3): [string, string, number][] => nodes.flatMap((a, i) => nodes.slice(i + 1).map((b) => [a, b, c] as [string, string, number]));

  test('two cliques joined by one strong pair stay two clusters (not one connected component)', () => {
    const g = graph([...clique(['a', 'b', 'c', 'd', 'e']), ...clique(['p', 'q', 'r', 's', 't']), ['e', 'p', 9]]);
    expect(findClusters(g)).toEqual([
      ['a', 'b', 'c', 'd', 'e'],
      ['p', 'q', 'r', 's', 't'],
    ]);
  });

  test('a chain is no cluster: every member must be strongly paired with every other', () => {
    const g = graph([['a', 'b', 5], ['b', 'c', 5], ['c', 'd', 5], ['d', 'e', 5], ['e', 'f', 5]]);
    expect(findClusters(g)).toEqual([]);
  });
});
