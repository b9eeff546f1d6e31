import { CacheStore } from '../../shared/stores/cache-store';
import { SearchIndex } from '../../shared/index/search-index';
import { LinkResolver } from '../../shared/model/resolve';
import { parseNote } from '../../shared/model/note';
import { NoteIndexer } from '../../shared/vault/note-indexer';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { env } from '../stores/helpers';

/** An indexer over `blobs` whose index never yields by itself, so only loadFromCache's own turns show. */
async function session(blobs: MemoryBlobStore) {
  const deps = await env(blobs);
  const { store } = await CacheStore.open(deps);
  const index = await SearchIndex.create({ yieldToHost: async () => {} });
  return { store, index, indexer: new NoteIndexer(store, index, new LinkResolver(), () => [], deps.clock) };
}

describe('warm start gives the host turns', () => {
  it('lets other work run after loading the term dictionary and the note rows, before the first notes go into the index', async () => {
    const blobs = new MemoryBlobStore();
    const first = await session(blobs);
    await first.indexer.loadFromCache();
    await first.indexer.batch(async () => {
      for (let i = 0; i < 30; i++) {
        const text = `# Note ${i}\nword${i} otters rivers\n`;
        await first.indexer.indexNote(parseNote(`n${i}.md`, text), `id-${i}`, { path: `n${i}.md`, mtime: 1, size: text.length }, []);
      }
    });
    await first.store.close();

    const warm = await session(blobs);
    let ran = false;
    setImmediate(() => (ran = true));
    let ranBeforeIndexing: boolean | null = null;
    await warm.indexer.loadFromCache(() => void (ranBeforeIndexing ??= ran));
    expect(ranBeforeIndexing).toBe(true);
    expect(warm.indexer.byPath.size).toBe(30);
    expect(warm.index.lexicon.bagsUsed).toBe(30);
  });
});
