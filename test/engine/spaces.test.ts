import { HashingEmbedder } from '../../shared/index/embedders/hashing-embedder';
import { openHarness, paths } from './harness';

const files = { 'a.md': 'otters hold hands while sleeping', 'b.md': 'beavers build dams across rivers' };

describe('embedding spaces', () => {
  test('every vector is stored under its space id', async () => {
    const h = await openHarness(files);
    await h.engine.reconcile();
    const id = h.engine.note('a.md')!.nodeId;
    expect(h.engine.cache.vectors(id, 'hash-ngram-v2-384')).toHaveLength(1);
    expect(h.engine.activeSpaces()).toEqual(['hash-ngram-v2-384']);
  });

  test('batch re-embedding fills a new space for every note and vector search merges both spaces', async () => {
    const h = await openHarness(files);
    await h.engine.reconcile();
    const small = new HashingEmbedder(128);
    expect(await h.engine.addSpace(small)).toBe(2);
    for (const n of h.engine.notes()) expect(h.engine.cache.vectors(n.nodeId, small.spaceId)).toHaveLength(1);
    expect(h.engine.activeSpaces()).toEqual(['hash-ngram-v2-384', 'hash-ngram-v2-128']);
    expect((await paths(h.engine, 'otters sleeping', 'vector'))[0]).toBe('a.md');
  });

  test('lazy: a space opened without vectors gets them as notes are touched', async () => {
    const h = await openHarness(files);
    await h.engine.reconcile();
    await h.engine.close();
    const small = new HashingEmbedder(128);
    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock, deps: { embedders: [new HashingEmbedder(), small] } });
    await again.engine.reconcile();
    const a = again.engine.note('a.md')!.nodeId;
    expect(again.engine.cache.vectors(a, small.spaceId)).toBeNull();
    again.engine.startWatching();
    await again.vault.write('a.md', 'otters hold hands while sleeping on the water');
    await again.engine.settle();
    expect(again.engine.cache.vectors(a, small.spaceId)).toHaveLength(1);
    expect(again.engine.cache.vectors(again.engine.note('b.md')!.nodeId, small.spaceId)).toBeNull();
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
  for (const n of again.engine.notes()) expect(again.engine.cache.vectors(n.nodeId, replacement.spaceId)).toHaveLength(1);
  expect((await paths(again.engine, 'otters sleeping', 'vector'))[0]).toBe('a.md');
});
