import { CacheStore } from '../../shared/stores/cache-store';
import { cachePartFile, decodeCache, encodeCachePart } from '../../shared/stores/cache-codec';
import { SHARDS } from '../../shared/stores/cache-tables';
import { SearchIndex } from '../../shared/index/search-index';
import { LinkResolver } from '../../shared/model/resolve';
import { parseNote } from '../../shared/model/note';
import { NoteIndexer } from '../../shared/vault/note-indexer';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { env } from '../stores/helpers';

const NOTES: Record<string, string> = {
  'a.md': '# Otters\nSea otters hold hands while sleeping. Otters otters otters.',
  'b.md': '---\ntitle: River notes\ntags: [water]\n---\nRivers carry sediment; otters live by rivers.',
  'c.md': 'Memory consolidation happens during sleep, and sleep deprivation hurts recall.',
  'd.md': '## Cells\nThe cell membrane and cellular respiration. Mitochondria make ATP in the cell.',
};
const QUERIES = ['otters', 'sleep recall', 'cell membrane ATP', 'rivers water sediment', 'hands'];

/** One engine session over `blobs`: a cache store, an empty search index and the indexer that fills both. */
async function session(blobs: MemoryBlobStore) {
  const deps = await env(blobs);
  const { store, rebuilt } = await CacheStore.open(deps);
  const index = await SearchIndex.create({ yieldToHost: async () => {} });
  const indexer = new NoteIndexer(store, index, new LinkResolver(), () => [], deps.clock);
  await indexer.loadFromCache();
  const add = (path: string, text: string) =>
    indexer.indexNote(parseNote(path, text), `id-${path}`, { path, mtime: 1, size: text.length }, []);
  const results = () => Promise.all(QUERIES.map((text) => index.search({ text, mode: 'lexical', k: 20 })));
  return { store, index, indexer, rebuilt, add, results };
}

/** Results of an index that tokenised every note in this session (no cache behind it). */
async function freshResults(notes: Record<string, string>) {
  const s = await session(new MemoryBlobStore());
  for (const [path, text] of Object.entries(notes)) await s.add(path, text);
  return s.results();
}

async function seeded(): Promise<MemoryBlobStore> {
  const blobs = new MemoryBlobStore();
  const s = await session(blobs);
  await s.indexer.batch(async () => {
    for (const [path, text] of Object.entries(NOTES)) await s.add(path, text);
  });
  expect(s.index.lexicon.bagsUsed).toBe(0);
  await s.store.close();
  return blobs;
}

describe('persisted BM25 term bags', () => {
  it('a warm start from stored bags skips tokenising and ranks and scores exactly like a fresh index', async () => {
    const blobs = await seeded();
    const warm = await session(blobs);
    expect(warm.index.lexicon.bagsUsed).toBe(Object.keys(NOTES).length);
    const got = await warm.results();
    expect(got).toEqual(await freshResults(NOTES));
    expect(got[0].map((h) => h.path)).toEqual(['a.md', 'b.md']);
  });

  it('keeps term ids stable while the dictionary grows across sessions', async () => {
    const blobs = await seeded();
    const second = await session(blobs);
    await second.add('e.md', 'Platypus venom and otters: a zoology aside about monotremes.');
    await second.add('a.md', 'Otters rewritten: now about hands, sleep and platypus.');
    await second.store.close();
    const third = await session(blobs);
    expect(third.index.lexicon.bagsUsed).toBe(5);
    const all = { ...NOTES, 'e.md': 'Platypus venom and otters: a zoology aside about monotremes.', 'a.md': 'Otters rewritten: now about hands, sleep and platypus.' };
    expect(await third.results()).toEqual(await freshResults(all));
  });

  it('a bag counted by another tokenizer (or lexical-text version) is ignored and the note is tokenised, then re-stored', async () => {
    const blobs = await seeded();
    const tamper = await CacheStore.open(await env(blobs));
    const bags = [...tamper.store.allTermBags()];
    const a = bags.find((b) => b.node_id === 'id-a.md')!;
    const d = bags.find((b) => b.node_id === 'id-d.md')!;
    // d's terms under a hash whose tokenizer fingerprint (its first 16 characters) is not this build's
    tamper.store.putTermBags([{ ...d, node_id: 'id-a.md', lexHash: `${'0'.repeat(16)}${a.lexHash.slice(16)}` }]);
    await tamper.store.close();

    const warm = await session(blobs);
    expect(warm.index.lexicon.bagsUsed).toBe(3);
    expect(await warm.results()).toEqual(await freshResults(NOTES));
    await warm.store.close();
    expect((await session(blobs)).index.lexicon.bagsUsed).toBe(4);
  });

  it('storing a note again drops its bag, so a stored bag always describes the stored note', async () => {
    const blobs = await seeded();
    const s = await session(blobs);
    expect(s.store.termBag('id-a.md')).not.toBeNull();
    s.store.putNote({ ...s.store.note('a.md')!, content_hash: 'changed' }, []);
    expect(s.store.termBag('id-a.md')).toBeNull();
    await s.add('a.md', 'Otters, rewritten.'); // the indexer stores the bag of what the index now holds
    expect(s.store.termBag('id-a.md')?.lexHash).toBe(s.index.lexicon.bagOf('id-a.md')?.lexHash);
  });

  it('a cache that holds no term bags (written before they existed) still loads by tokenising and gains bags', async () => {
    const blobs = await seeded();
    for (let shard = 0; shard < SHARDS; shard++) {
      const decoded = decodeCache((await blobs.read(cachePartFile(shard)))!);
      if (!decoded.ok) throw new Error(decoded.reason);
      decoded.parts.bags = [];
      await blobs.writeAtomic(cachePartFile(shard), encodeCachePart(decoded.parts, shard));
    }

    const upgraded = await session(blobs);
    expect(upgraded.rebuilt).toBe(false);
    expect(upgraded.indexer.byPath.size).toBe(4);
    expect(upgraded.index.lexicon.bagsUsed).toBe(0);
    expect(await upgraded.results()).toEqual(await freshResults(NOTES));
    expect([...upgraded.store.allTermBags()].map((b) => b.node_id).sort()).toEqual(['id-a.md', 'id-b.md', 'id-c.md', 'id-d.md']);
    await upgraded.store.close();
    expect((await session(blobs)).index.lexicon.bagsUsed).toBe(4);
  });

  it('refuses to append terms anywhere but at the end of the stored dictionary', async () => {
    const { store } = await CacheStore.open(await env());
    store.appendTerms(0, ['alpha', 'beta']);
    expect(() => store.appendTerms(1, ['gamma'])).toThrow(/dictionary holds 2/);
    expect(() => store.appendTerms(2, ['two\nlines'])).toThrow(/newline/);
    store.appendTerms(2, ['gamma']);
    expect(store.termDictionary()).toEqual(['alpha', 'beta', 'gamma']);
  });
});
