import { create, insert as oramaInsert, remove as oramaRemove, search } from '@orama/orama';
import { accumulateBm25, createBm25Index, createStubDocumentsStore, oramaTokenizer, preparePostings } from '../../shared/index/orama-bm25';
import { forEachPosting } from '../../shared/index/postings';
import { tokenize } from '../../shared/index/tokenizer';

/** Our components are synchronous, so Orama's insert/remove must answer synchronously too. */
function sync<T>(result: T | Promise<T>): T {
  if (result instanceof Promise) throw new Error('Orama went async');
  return result;
}
const insert = (...args: Parameters<typeof oramaInsert>) => sync(oramaInsert(...args));
const remove = (...args: Parameters<typeof oramaRemove>) => sync(oramaRemove(...args));

function db() {
  return create({
    schema: { text: 'string' } as const,
    sort: { enabled: false },
    components: { tokenizer: oramaTokenizer(tokenize), index: createBm25Index(), documentsStore: createStubDocumentsStore(['text']) },
  });
}

describe('Orama BM25 index component', () => {
  it('keeps flat postings equal to a from-scratch inverted index through inserts, upserts, removals and rebuilds', () => {
    const orama = db();
    let seed = 42;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const syllables = ['ka', 'kan', 'kat', 'ta', 'tak', 'n', 'an', 'ant', 'anti', 'x'];
    const word = () => Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => syllables[Math.floor(rnd() * syllables.length)]).join('');
    const live = new Map<string, string>();
    const put = (id: string) => {
      const text = Array.from({ length: 8 }, word).join(' ');
      if (live.has(id)) remove(orama, id);
      insert(orama, { id, text });
      live.set(id, text);
    };
    const drop = (id: string) => {
      remove(orama, id);
      live.delete(id);
    };
    const index = orama.data.index;
    const stats = index.bm25.text;
    const check = () => {
      accumulateBm25(index, 'text', ['ka'], { k: 0.9, b: 0.4, d: 0 }, 1, new Float64Array(1024)); // builds or refreshes the postings
      const expected = new Map<string, Set<number>>();
      for (const [id, text] of live) {
        const slot = orama.internalDocumentIDStore.idToInternalId.get(id)!;
        for (const t of tokenize(text)) {
          if (!expected.has(t)) expected.set(t, new Set());
          expected.get(t)!.add(slot);
        }
      }
      for (const [term, tid] of stats.dict) {
        const got: number[] = [];
        forEachPosting(stats.postings!, stats.docs, tid, (doc) => got.push(doc));
        expect(got.sort((a, b) => a - b)).toEqual([...(expected.get(term) ?? [])].sort((a, b) => a - b));
        expect(stats.df[tid]).toBe(expected.get(term)?.size ?? 0);
      }
      expect(stats.docCount).toBe(live.size);
    };
    for (let i = 0; i < 300; i++) put(`d${i}`);
    check(); // snapshot only
    for (let i = 0; i < 300; i += 3) drop(`d${i}`);
    for (let i = 1; i < 300; i += 5) put(`d${i}`);
    for (let i = 300; i < 340; i++) put(`d${i}`);
    check(); // snapshot + late inserts
    expect(stats.postings!.deltaPairs).toBeGreaterThan(0);
    for (let i = 340; i < 2000; i++) put(`d${i}`);
    check(); // enough late inserts to rebuild the snapshot
    expect(stats.postings!.deltaPairs).toBe(0);
    expect(stats.dict.size).toBeGreaterThan(50);
  });

  it('builds postings ahead of the first query for a loaded index, never an empty one, and drops them once stale', () => {
    const orama = db();
    const index = orama.data.index;
    const stats = index.bm25.text;
    const score = (o: ReturnType<typeof db>, term: string) => {
      const acc = new Float64Array(4096);
      accumulateBm25(o.data.index, 'text', [term], { k: 0.9, b: 0.4, d: 0 }, 1, acc);
      return [...acc];
    };
    // The same inserts and removal without preparing: postings built by the query itself.
    const fresh = db();
    const text = (i: number) => (i < 100 ? `alpha beta${i % 7} gamma${i}` : i < 110 ? `alpha beta${i % 7}` : `alpha beta${i % 7} delta${i}`);
    for (let i = 0; i < 110; i++) insert(fresh, { id: `d${i}`, text: text(i) });
    remove(fresh, 'd3');
    const early = score(fresh, 'beta3');
    for (let i = 110; i < 3000; i++) insert(fresh, { id: `d${i}`, text: text(i) });
    const late = score(fresh, 'beta3');

    preparePostings(index);
    expect(stats.postings).toBeNull(); // a cold index's inserts would all be late inserts
    for (let i = 0; i < 100; i++) insert(orama, { id: `d${i}`, text: text(i) });
    preparePostings(index); // the end of a warm start's load
    expect(stats.postings).not.toBeNull();
    for (let i = 100; i < 110; i++) insert(orama, { id: `d${i}`, text: text(i) });
    remove(orama, 'd3');
    expect(stats.postings!.deltaPairs).toBeGreaterThan(0);
    expect(score(orama, 'beta3')).toEqual(early);
    for (let i = 110; i < 3000; i++) insert(orama, { id: `d${i}`, text: text(i) });
    expect(stats.postings).toBeNull(); // stale: the next query builds them afresh
    expect(score(orama, 'beta3')).toEqual(late);
    expect(early.filter((v) => v > 0).length).toBeGreaterThan(10);
  });

  it('answers Orama’s own search() with the same BM25 scores, exact terms only', async () => {
    const orama = db();
    insert(orama, { id: 'a', text: 'cell membrane cell' });
    insert(orama, { id: 'b', text: 'cellular membrane transport' });
    insert(orama, { id: 'c', text: 'stars' });
    const relevance = { k: 0.9, b: 0.4, d: 0 };
    const res = await search(orama, { term: 'cell membrane', properties: ['text'], relevance: { ...relevance }, limit: 10 });
    const index = orama.data.index;
    const acc = new Float64Array(8);
    accumulateBm25(index, 'text', tokenize('cell membrane'), relevance, 1, acc);
    expect(res.hits.map((h) => h.id)).toEqual(['a', 'b']);
    for (const h of res.hits) expect(h.score).toBeCloseTo(acc[orama.internalDocumentIDStore.idToInternalId.get(h.id)!], 12);
  });

  it('stores only a stub document in Orama, never the text', () => {
    const orama = db();
    insert(orama, { id: 'x', text: 'secret words' });
    const stored = Object.values(orama.data.docs.docs)[0] as Record<string, unknown>;
    expect(stored).toEqual({ id: 'x', text: '' });
    expect(remove(orama, 'x')).toBe(true);
    expect(orama.data.index.bm25.text.docCount).toBe(0);
  });
});
