import { SearchIndex, type IndexDoc, type SearchQuery } from '../../shared/index/search-index';
import { note, prng, queryVectors, vectorsFor } from './helpers';

const VOCAB = (
  'memory agent vault note graph link tag search index vector lexical fusion chunk heading title alias ' +
  'database postgres mongo migration schema garden tomato basil bread starter flour water oven ' +
  'physics quantum field energy star galaxy planet orbit 東京 記憶 привет мир 🚀'
).split(' ');

function randomDoc(id: string, rnd: () => number): IndexDoc {
  const words = (n: number) => Array.from({ length: n }, () => VOCAB[Math.floor(rnd() * VOCAB.length)]).join(' ');
  const paragraphs = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => words(20 + Math.floor(rnd() * 120)));
  const body = paragraphs.map((p, i) => (rnd() < 0.3 ? `## ${words(2)}\n\n${p}` : p) + (i % 2 ? '.' : '')).join('\n\n');
  const statuses = ['active', 'active', 'archived', 'quarantined'];
  return note(id, words(1 + Math.floor(rnd() * 3)), body, {
    aliases: rnd() < 0.3 ? [words(2)] : [],
    tags: rnd() < 0.5 ? [`topic/${VOCAB[Math.floor(rnd() * 10)]}`] : [],
    namespace: rnd() < 0.5 ? 'work/a' : 'home',
    status: statuses[Math.floor(rnd() * statuses.length)],
    note_type: rnd() < 0.5 ? 'observation' : 'concept',
  });
}

/** Vectors in one or two spaces (the second a different size), decided by the document. */
function vectorsOf(doc: IndexDoc, rnd: () => number): Map<string, Float32Array[]> {
  const vectors = vectorsFor(doc);
  if (rnd() < 0.5) vectors.set('tiny-4', doc.chunks.map(() => Float32Array.from([rnd(), rnd() - 0.5, rnd(), 0.1])));
  return vectors;
}

const QUERIES: SearchQuery[] = [
  { text: 'database migration postgres', mode: 'lexical', k: 10 },
  { text: 'garden tomato', mode: 'hybrid', k: 15, queryVectors: queryVectors('garden tomato') },
  {
    text: 'quantum star',
    mode: 'vector',
    k: 20,
    queryVectors: new Map([...queryVectors('quantum star'), ['tiny-4', Float32Array.from([0.3, 0.1, 0.9, 0])]]),
  },
  { text: 'memory vault 東京', mode: 'hybrid', k: 8, queryVectors: queryVectors('memory vault'), filters: { namespaces: ['work'] } },
  { text: 'bread flour water', mode: 'lexical', k: 30, filters: { include_quarantined: true, tags: ['topic'] } },
  { text: 'agent', k: 100 },
];

describe('SearchIndex: incremental equals bulk', () => {
  it.each([1, 2, 3])('a seeded random sequence of upserts and removes (seed %i) gives the bulk-loaded results', async (seed) => {
    const rnd = prng(seed * 7919);
    const incremental = await SearchIndex.create();
    const final = new Map<string, { doc: IndexDoc; vectors: Map<string, Float32Array[]> }>();
    for (let step = 0; step < 400; step++) {
      const id = `id-${Math.floor(rnd() * 60)}`;
      if (rnd() < 0.25) {
        await incremental.remove(id);
        final.delete(id);
      } else {
        const doc = randomDoc(id, rnd);
        const vectors = vectorsOf(doc, rnd);
        await incremental.upsert(doc, vectors);
        final.set(id, { doc, vectors });
      }
    }
    const bulk = await SearchIndex.create({ batchSize: 7 });
    await bulk.bulkLoad([...final.values()].reverse());
    expect(incremental.ids()).toEqual(bulk.ids());
    expect(incremental.size()).toBe(final.size);
    let nonEmpty = 0;
    for (const q of QUERIES) {
      const a = await incremental.search(q);
      expect(a).toEqual(await bulk.search(q));
      if (a.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBe(QUERIES.length);
  });

  it('bulkLoad with a repeated id keeps the last version', async () => {
    const rnd = prng(5);
    const first = randomDoc('dup', rnd);
    const second = note('dup', 'Second', 'only the second version has zeppelin');
    const idx = await SearchIndex.create();
    await idx.bulkLoad([
      { doc: first, vectors: vectorsFor(first) },
      { doc: second, vectors: vectorsFor(second) },
    ]);
    expect(idx.size()).toBe(1);
    expect((await idx.search({ text: 'zeppelin', mode: 'lexical' }))[0].title).toBe('Second');
  });
});
