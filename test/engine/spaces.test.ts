import { HashingEmbedder } from '../../shared/index/embedders/hashing-embedder';
import { openHarness, paths } from './harness';

const files = { 'a.md': 'otters hold hands while sleeping', 'b.md': 'beavers build dams across rivers' };

describe('embedding spaces', () => {
  test('every vector is stored under its space id', async () => {
    const h = await openHarness(files);
    await h.engine.reconcile();
    const id = h.engine.services.notes.note('a.md')!.nodeId;
    expect(h.engine.services.search.cache.vectors(id, 'hash-ngram-v2-384')).toHaveLength(1);
    expect(h.engine.services.search.activeSpaces()).toEqual(['hash-ngram-v2-384']);
  });

  test('batch re-embedding fills a new space for every note and vector search merges both spaces', async () => {
    const h = await openHarness(files);
    await h.engine.reconcile();
    const small = new HashingEmbedder(128);
    expect(await h.engine.services.search.addSpace(small)).toBe(2);
    for (const n of h.engine.services.notes.notes()) expect(h.engine.services.search.cache.vectors(n.nodeId, small.spaceId)).toHaveLength(1);
    expect(h.engine.services.search.activeSpaces()).toEqual(['hash-ngram-v2-384', 'hash-ngram-v2-128']);
    expect((await paths(h.engine, 'otters sleeping', 'vector'))[0]).toBe('a.md');
  });

  test('lazy: a space opened without vectors gets them as notes are touched', async () => {
    const h = await openHarness(files);
    await h.engine.reconcile();
    await h.engine.close();
    const small = new HashingEmbedder(128);
    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock, deps: { embedders: [new HashingEmbedder(), small] } });
    await again.engine.reconcile();
    const a = again.engine.services.notes.note('a.md')!.nodeId;
    expect(again.engine.services.search.cache.vectors(a, small.spaceId)).toBeNull();
    again.engine.startWatching();
    await again.vault.write('a.md', 'otters hold hands while sleeping on the water');
    await again.engine.settle();
    expect(again.engine.services.search.cache.vectors(a, small.spaceId)).toHaveLength(1);
    expect(again.engine.services.search.cache.vectors(again.engine.services.notes.note('b.md')!.nodeId, small.spaceId)).toBeNull();
  });
});

test('the primary space is backfilled for unchanged notes (e.g. after the default embedder changes version)', async () => {
  const h = await openHarness(files);
  await h.engine.reconcile();
  await h.engine.close();
  const replacement = new HashingEmbedder(128);
  const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock, deps: { embedders: [replacement] } });
  const report = await again.engine.reconcile();
  expect(report).toMatchObject({ indexed: 0, unchanged: 2 });
  for (const n of again.engine.services.notes.notes()) expect(again.engine.services.search.cache.vectors(n.nodeId, replacement.spaceId)).toHaveLength(1);
  expect((await paths(again.engine, 'otters sleeping', 'vector'))[0]).toBe('a.md');
});

describe('adding and removing a space while open (the plugin switching MiniLM on and off)', () => {
  test('removeSpace stops using a space without a restart; adding it again embeds only what changed meanwhile', async () => {
    const h = await openHarness(files);
    await h.engine.reconcile();
    const small = new HashingEmbedder(128);
    await h.engine.services.search.addSpace(small);
    expect(h.engine.services.search.removeSpace(small.spaceId)).toBe(true);
    expect(h.engine.services.search.removeSpace(small.spaceId)).toBe(false);
    expect(h.engine.services.search.activeSpaces()).toEqual(['hash-ngram-v2-384']);

    h.engine.startWatching();
    await h.vault.write('a.md', 'otters hold hands while sleeping on the water');
    await h.engine.settle();
    const a = h.engine.services.notes.note('a.md')!;
    const b = h.engine.services.notes.note('b.md')!;
    // Indexed while the space was off: no vectors for its new text there.
    expect(h.engine.services.search.cache.vectors(a.nodeId, small.spaceId, a.contentHash)).toBeNull();

    const embedded: string[] = [];
    const counting = { spaceId: small.spaceId, dimensions: small.dimensions, embed: async (t: string[]) => (embedded.push(...t), small.embed(t)) };
    expect(await h.engine.services.search.addSpace(counting)).toBe(2);
    expect(embedded).toHaveLength(1);
    expect(embedded[0]).toContain('on the water');
    expect(h.engine.services.search.cache.vectors(b.nodeId, small.spaceId, b.contentHash)).toHaveLength(1);
  });

  test('a space added after a warm start reuses the cached vectors and searches them', async () => {
    const h = await openHarness(files);
    await h.engine.reconcile();
    const small = new HashingEmbedder(128);
    await h.engine.services.search.addSpace(small);
    await h.engine.close();

    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
    await again.engine.reconcile();
    const embedded: string[] = [];
    const counting = { spaceId: small.spaceId, dimensions: small.dimensions, embed: async (t: string[]) => (embedded.push(...t), small.embed(t)) };
    await again.engine.services.search.addSpace(counting);
    expect(embedded).toEqual([]);
    // Searches merge every space, so each note's vector in the added space is asked for directly.
    for (const n of again.engine.services.notes.notes()) expect(again.engine.services.search.noteVector(n.nodeId, small.spaceId)).toHaveLength(128);
  });

  test('the primary space cannot be removed', async () => {
    const h = await openHarness(files);
    expect(() => h.engine.services.search.removeSpace('hash-ngram-v2-384')).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });
});
