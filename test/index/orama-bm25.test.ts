import { create, insert as oramaInsert, remove as oramaRemove, search } from '@orama/orama';
import { accumulateBm25, createBm25Index, createStubDocumentsStore, findNode, oramaTokenizer } from '../../shared/index/orama-bm25';
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
  it('keeps its term → node cache identical to Orama’s radix tree through inserts and removals', () => {
    const orama = db();
    let seed = 42;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const syllables = ['ka', 'kan', 'kat', 'ta', 'tak', 'n', 'an', 'ant', 'anti', 'x'];
    const word = () => Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => syllables[Math.floor(rnd() * syllables.length)]).join('');
    for (let i = 0; i < 300; i++) insert(orama, { id: `d${i}`, text: Array.from({ length: 8 }, word).join(' ') });
    for (let i = 0; i < 300; i += 3) remove(orama, `d${i}`);
    const index = orama.data.index;
    const stats = index.bm25.text;
    const tree = index.indexes.text.node as unknown as Parameters<typeof findNode>[0];
    expect(stats.dict.size).toBeGreaterThan(50);
    for (const [term, tid] of stats.dict) {
      const node = findNode(tree, term);
      expect(node).toBeDefined();
      expect(stats.nodes[tid]).toBe(node);
      expect(node!.d.size).toBe(stats.df[tid]);
    }
    expect(stats.docCount).toBe(200);
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
