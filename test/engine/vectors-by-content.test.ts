import { HashingEmbedder } from '../../shared/index/embedders/hashing-embedder';
import type { Embedder } from '../../shared/ports';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { openHarness } from './harness';

/** Counts the texts it is asked to embed: what the specs below say is never embedded twice. */
class CountingEmbedder implements Embedder {
  private readonly inner = new HashingEmbedder();
  readonly spaceId = this.inner.spaceId;
  readonly dimensions = this.inner.dimensions;
  texts = 0;
  embed(texts: string[]): Promise<Float32Array[]> {
    this.texts += texts.length;
    return this.inner.embed(texts);
  }
}

const NOTES = { 'Pools.md': '---\ntitle: Pools\n---\nThe connection pool holds twenty connections.\n', 'Garden.md': '---\ntitle: Garden\n---\nRaised beds for tomatoes.\n' };

test('a cache carried from another device (other node ids) is reused: unchanged notes are not embedded again', async () => {
  const first = new CountingEmbedder();
  const a = await openHarness(NOTES, { deps: { embedders: [first] } });
  await a.engine.reconcile();
  expect(first.texts).toBeGreaterThan(0);
  await a.engine.close();
  // Another device: the same notes, its own memory.sqlite (other registry ids), a.'s cache.sqlite carried over.
  const carried = new MemoryBlobStore();
  for (const [name, bytes] of a.blobs.files) if (name.startsWith('cache')) carried.files.set(name, bytes.slice());
  const second = new CountingEmbedder();
  const b = await openHarness(NOTES, { blobs: carried, deps: { embedders: [second] } });
  await b.engine.reconcile();
  expect(second.texts).toBe(0);
  const hits = await b.engine.services.search.search('connection pool', { k: 1, mode: 'vector' });
  expect(hits[0]?.path).toBe('Pools.md');
  await b.engine.close();
});

test('a note with the same content as one already embedded (a copy, or a note under a node id another device gave it) is not embedded again', async () => {
  const counting = new CountingEmbedder();
  const h = await openHarness(NOTES, { deps: { embedders: [counting] } });
  await h.engine.reconcile();
  const before = counting.texts;
  await h.vault.write('Copy of Pools.md', NOTES['Pools.md']);
  await h.engine.reconcile();
  expect(counting.texts).toBe(before);
  const copy = h.engine.services.notes.noteAtPath('Copy of Pools.md');
  expect(copy && h.engine.services.search.noteVector(copy.nodeId)).toBeTruthy();
  await h.engine.close();
});
