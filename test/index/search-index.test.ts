import { LithosError } from '../../shared/errors';
import { SearchIndex, type SearchHit } from '../../shared/index/search-index';
import { CORPUS, embedder, note, queryVectors, vectorsFor } from './helpers';

async function loaded(): Promise<SearchIndex> {
  const idx = await SearchIndex.create();
  await idx.bulkLoad(CORPUS.map((doc) => ({ doc, vectors: vectorsFor(doc) })));
  return idx;
}
const ids = (hits: SearchHit[]) => hits.map((h) => h.id);

describe('SearchIndex: lexical ranking', () => {
  it('ranks the note that best matches the query terms first, with normalised scores', async () => {
    const idx = await loaded();
    const hits = await idx.search({ text: 'sourdough starter', mode: 'lexical' });
    expect(ids(hits)).toEqual(['n1', 'n2']);
    expect(hits[0].score).toBe(1);
    expect(hits[0].lexical).toBe(1);
    expect(hits[1].score).toBeGreaterThan(0);
    expect(hits[1].score).toBeLessThan(1);
    expect(hits[0].vector).toBe(0);
  });

  it('searches titles, aliases, tags and headings as well as the body', async () => {
    const idx = await SearchIndex.create();
    await idx.upsert(note('a', 'Zebra facts', 'plain body'), new Map());
    await idx.upsert(note('b', 'Other', 'plain body', { aliases: ['okapi'] }), new Map());
    await idx.upsert(note('c', 'Other', 'plain body', { tags: ['giraffe'] }), new Map());
    await idx.upsert({ ...note('d', 'Other', ''), headings: ['Lemur section'] }, new Map());
    for (const [q, id] of [['zebra', 'a'], ['okapi', 'b'], ['giraffe', 'c'], ['lemur', 'd']]) {
      expect(ids(await idx.search({ text: q, mode: 'lexical' }))).toEqual([id]);
    }
  });

  it('gives a snippet from the best-matching chunk around the first query term', async () => {
    const idx = await SearchIndex.create();
    const filler = 'Unrelated words about weather and travel plans. '.repeat(25);
    const body = `${filler}\n\n## Findings\n\n${'More filler text here. '.repeat(20)}The flux capacitor needs 1.21 gigawatts. ${'Trailing text. '.repeat(20)}`;
    const doc = note('f', 'Lab notes', body);
    await idx.upsert(doc, new Map());
    const [hit] = await idx.search({ text: 'flux capacitor', mode: 'lexical' });
    expect(doc.chunks.length).toBeGreaterThan(1);
    expect(doc.chunks[hit.chunk_index].text).toContain('flux capacitor');
    expect(hit.snippet).toContain('flux capacitor');
    expect(hit.snippet.length).toBeLessThanOrEqual(202);
  });

  it('returns chunk_index -1 and an empty snippet for a title-only note', async () => {
    const idx = await SearchIndex.create();
    await idx.upsert(note('t', 'Bare title', ''), new Map());
    expect(await idx.search({ text: 'bare', mode: 'lexical' })).toEqual([
      { id: 't', path: 'notes/t.md', title: 'Bare title', score: 1, lexical: 1, vector: 0, snippet: '', chunk_index: -1 },
    ]);
  });
});

describe('SearchIndex: filters', () => {
  it('excludes quarantined notes unless asked for', async () => {
    const idx = await loaded();
    expect(ids(await idx.search({ text: 'migrate database', mode: 'lexical' }))).not.toContain('n6');
    expect(ids(await idx.search({ text: 'migrate database', mode: 'lexical', filters: { include_quarantined: true } }))).toContain('n6');
    expect(ids(await idx.search({ text: 'migrate database', mode: 'lexical', filters: { statuses: ['quarantined'] } }))).toEqual(['n6']);
  });

  it('filters by namespace prefix, note type, tags, path prefix and status in every mode', async () => {
    const idx = await loaded();
    const qv = queryVectors('postgres database orders');
    for (const mode of ['lexical', 'vector', 'hybrid'] as const) {
      const q = { text: 'postgres database orders', mode, queryVectors: qv };
      expect(ids(await idx.search({ ...q, filters: { namespaces: ['work'] } })).sort()).toEqual(['n3', 'n4']);
      expect(ids(await idx.search({ ...q, filters: { note_types: ['concept'] } }))).toEqual(['n4']);
      expect(ids(await idx.search({ ...q, filters: { tags: ['project'], path_prefix: 'work/db' } }))).toEqual(['n3']);
      expect(ids(await idx.search({ ...q, filters: { statuses: ['archived'] } }))).toEqual(mode === 'lexical' ? [] : ['n5']);
    }
  });

  it('applies filters before cutting to k', async () => {
    const idx = await loaded();
    const top = await idx.search({ text: 'starter bread flour', mode: 'lexical', k: 1 });
    expect(ids(top)).toEqual(['n1']);
    const filtered = await idx.search({ text: 'starter bread flour', mode: 'lexical', k: 1, filters: { tags: ['cooking'], path_prefix: 'notes/n2' } });
    expect(ids(filtered)).toEqual(['n2']);
    expect(filtered[0].score).toBe(1); // normalised over what passed the filters
  });
});

describe('SearchIndex: edge cases', () => {
  it('returns [] for an empty index, an empty query and a stopword-only lexical query', async () => {
    const empty = await SearchIndex.create();
    expect(await empty.search({ text: 'anything' })).toEqual([]);
    expect(await empty.search({ text: 'anything', mode: 'vector', queryVectors: queryVectors('anything') })).toEqual([]);
    const idx = await loaded();
    expect(await idx.search({ text: '' })).toEqual([]);
    expect(await idx.search({ text: '   \n' })).toEqual([]);
    expect(await idx.search({ text: 'the of and', mode: 'lexical' })).toEqual([]);
  });

  it('answers a 10,000-character query', async () => {
    const idx = await loaded();
    const long = ('postgres tuning autovacuum ' + 'lorem ipsum dolor sit amet '.repeat(20)).repeat(20).slice(0, 10_000);
    expect(long).toHaveLength(10_000);
    const hits = await idx.search({ text: long, queryVectors: queryVectors(long) });
    expect(hits[0].id).toBe('n4');
  });

  it('serves a huge k as MAX_K', async () => {
    const idx = await loaded();
    const hits = await idx.search({ text: 'x', mode: 'vector', k: 1_000_000, queryVectors: queryVectors('the garden starter database') });
    expect(hits.length).toBeGreaterThan(2);
    expect(hits.length).toBeLessThanOrEqual(CORPUS.length);
  });

  it('rejects bad arguments with LithosError and changes nothing', async () => {
    const idx = await loaded();
    await expect(idx.search({ text: 'x', k: 0 })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(idx.search({ text: 'x', mode: 'fuzzy' as never })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(idx.search({ text: 'x', mode: 'vector' })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(idx.search({ text: 'x', mode: 'vector', queryVectors: new Map([[embedder.spaceId, new Float32Array(3)]]) })).rejects.toBeInstanceOf(
      LithosError,
    );
    const bad = note('bad', 'Bad', 'one chunk');
    await expect(idx.upsert(bad, new Map([[embedder.spaceId, []]]))).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(idx.upsert({ ...bad, id: '' }, new Map())).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(idx.has('bad')).toBe(false);
    expect(idx.size()).toBe(CORPUS.length);
  });
});

describe('SearchIndex: upsert and remove', () => {
  it('replaces the previous version of a note', async () => {
    const idx = await loaded();
    await idx.upsert(note('n5', 'Garden plan', 'Now about chess openings only.'), new Map());
    expect(ids(await idx.search({ text: 'tomatoes', mode: 'lexical' }))).toEqual([]);
    expect(ids(await idx.search({ text: 'chess', mode: 'lexical' }))).toEqual(['n5']);
    expect(idx.size()).toBe(CORPUS.length);
    // the old vectors went too: the note has none now
    expect(ids(await idx.search({ text: 'garden', mode: 'vector', queryVectors: queryVectors('tomatoes basil garden') }))).not.toContain('n5');
  });

  it('really removes a note: lexical, vector, exact title, ids', async () => {
    const idx = await loaded();
    await idx.remove('n1');
    await idx.remove('missing'); // no-op
    expect(idx.has('n1')).toBe(false);
    expect(idx.size()).toBe(CORPUS.length - 1);
    expect(idx.ids()).not.toContain('n1');
    expect(ids(await idx.search({ text: 'sourdough', mode: 'lexical' }))).toEqual([]);
    const hybrid = await idx.search({ text: 'Sourdough starter', queryVectors: queryVectors('Sourdough starter'), k: 50 });
    expect(ids(hybrid)).not.toContain('n1');
    expect(ids(await idx.search({ text: 'x', mode: 'vector', queryVectors: queryVectors('sourdough starter flour'), k: 50 }))).not.toContain('n1');
  });

  it('reports bulkLoad progress and yields to the host between batches', async () => {
    let yields = 0;
    const idx = await SearchIndex.create({ batchSize: 2, yieldToHost: async () => void yields++ });
    const progress: number[] = [];
    await idx.bulkLoad(
      CORPUS.map((doc) => ({ doc, vectors: vectorsFor(doc) })),
      (n) => progress.push(n),
    );
    expect(progress).toEqual([2, 4, 6]);
    expect(yields).toBe(3);
    expect(idx.ids()).toEqual(CORPUS.map((d) => d.id).sort());
  });

  it('yields with the default macrotask yield too', async () => {
    const idx = await SearchIndex.create({ batchSize: 1 });
    await idx.bulkLoad(CORPUS.slice(0, 3).map((doc) => ({ doc, vectors: new Map() })));
    expect(idx.size()).toBe(3);
  });
});

describe('SearchIndex: isolation from callers and from its own searches', () => {
  it('keeps its own copy of documents and vectors', async () => {
    const idx = await SearchIndex.create();
    const doc = note('m', 'Mutable', 'original words here');
    const vectors = vectorsFor(doc);
    await idx.upsert(doc, vectors);
    doc.title = 'Changed';
    doc.chunks[0].text = 'tampered';
    vectors.get(embedder.spaceId)![0].fill(0);
    const [hit] = await idx.search({ text: 'original', queryVectors: queryVectors('original words here') });
    expect(hit).toMatchObject({ id: 'm', title: 'Mutable', snippet: 'original words here' });
    expect(hit.vector).toBe(1);
  });

  it('gives the same results when searched repeatedly, whatever callers do to returned hits', async () => {
    const idx = await loaded();
    const q = { text: 'database postgres starter', queryVectors: queryVectors('database postgres starter'), k: 10 };
    const first = await idx.search(q);
    for (const h of first) {
      h.title = 'x';
      h.snippet = '';
    }
    await idx.search({ text: 'garden', mode: 'lexical' });
    await idx.search({ text: 'garden', mode: 'vector', queryVectors: queryVectors('garden') });
    const again = await idx.search(q);
    const third = await idx.search(q);
    expect(again).toEqual(third);
    expect(ids(again)).toEqual(ids(first));
    expect(again.every((h) => h.title !== 'x' && h.snippet !== '')).toBe(true);
    const vec = await idx.search({ text: 'x', mode: 'vector', queryVectors: queryVectors('sourdough starter flour water') });
    expect(vec[0].id).toBe('n1');
    expect(vec[0].vector).toBe(1);
  });
});
