import { BM25_PARAMS, LexicalIndex } from '../../shared/index/lexical-index';
import { bm25Score } from '../../shared/index/orama-bm25';
import { tokenize } from '../../shared/index/tokenizer';

const docs = [
  { id: 'a', text: 'cell biology of the cell membrane' },
  { id: 'b', text: 'cellular respiration in plants' },
  { id: 'c', text: 'membrane proteins and transport across membranes in the cell' },
  { id: 'd', text: 'stars galaxies and dark matter' },
];

/** Plain BM25 computed from scratch over whole documents, the reference the index must equal. */
function referenceBm25(query: string, corpus: { id: string; text: string }[]): Map<string, number> {
  const bags = corpus.map((d) => ({ id: d.id, toks: tokenize(d.text) }));
  const avg = bags.reduce((s, b) => s + b.toks.length, 0) / bags.length;
  const out = new Map<string, number>();
  for (const q of tokenize(query)) {
    const df = bags.filter((b) => b.toks.includes(q)).length;
    for (const b of bags) {
      const tf = b.toks.filter((t) => t === q).length;
      if (tf === 0) continue;
      const idf = Math.log(1 + (bags.length - df + 0.5) / (df + 0.5));
      const s = (idf * tf * (BM25_PARAMS.k + 1)) / (tf + BM25_PARAMS.k * (1 - BM25_PARAMS.b + (BM25_PARAMS.b * b.toks.length) / avg));
      out.set(b.id, (out.get(b.id) ?? 0) + s);
    }
  }
  return out;
}

/** id → score for the notes that got one. */
function byId(idx: LexicalIndex, scores: Float64Array, ids: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of ids) {
    const s = scores[idx.slotOf(id)];
    if (!Number.isNaN(s)) out.set(id, s);
  }
  return out;
}
const ALL = ['a', 'b', 'c', 'd'];

describe('LexicalIndex (Orama with plain BM25)', () => {
  it('scores exactly as plain BM25 with raw term counts and per-document df', async () => {
    const idx = LexicalIndex.create();
    idx.addMany(docs);
    for (const q of ['cell membrane', 'membrane', 'plants cell cell', 'dark cell']) {
      const got = byId(idx, idx.scores(q), ALL);
      const want = referenceBm25(q, docs);
      expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
      for (const [id, s] of want) expect(got.get(id)).toBeCloseTo(s, 10);
    }
  });

  it('matches terms exactly: no prefix or fuzzy matches', async () => {
    const idx = LexicalIndex.create();
    idx.addMany(docs);
    expect([...byId(idx, idx.scores('cell'), ALL).keys()].sort()).toEqual(['a', 'c']);
    expect(byId(idx, idx.scores('cel'), ALL).size).toBe(0);
    expect([...byId(idx, idx.scores('membranes'), ALL).keys()]).toEqual(['c']);
  });

  it('uses d = 0, the plain BM25 of the reference, in Orama’s formula', () => {
    expect(BM25_PARAMS).toEqual({ k: 0.9, b: 0.4, d: 0 });
    const plain = (2 * 1.9) / (2 + 0.9 * (1 - 0.4 + 0.4 * 1.5));
    expect(bm25Score(2, 3, 10, 15, 10, BM25_PARAMS)).toBeCloseTo(Math.log(1 + 7.5 / 3.5) * plain, 12);
  });

  it('forgets removed documents in scores, df and document length average', async () => {
    const idx = LexicalIndex.create();
    idx.addMany(docs);
    idx.remove('a');
    expect(idx.size()).toBe(3);
    const got = byId(idx, idx.scores('cell membrane'), ALL);
    const want = referenceBm25('cell membrane', docs.slice(1));
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [id, s] of want) expect(got.get(id)).toBeCloseTo(s, 10);
    idx.addMany([docs[0]]);
    expect(byId(idx, idx.scores('biology'), ALL).get('a')).toBeGreaterThan(0);
  });

  it('returns no scores for an empty index or a stopword-only query', () => {
    const idx = LexicalIndex.create();
    expect(idx.scores('cell').every(Number.isNaN)).toBe(true);
    idx.addMany(docs);
    expect(idx.scores('the of and').every(Number.isNaN)).toBe(true);
  });

  it('keeps a stable slot per id, reused after removal', () => {
    const idx = LexicalIndex.create();
    idx.addMany(docs);
    const slot = idx.slotOf('b');
    expect(slot).toBeGreaterThan(0);
    expect(idx.slotCount()).toBeGreaterThan(slot);
    idx.remove('b');
    idx.addMany([docs[1]]);
    expect(idx.slotOf('b')).toBe(slot);
    expect(new Set(ALL.map((id) => idx.slotOf(id))).size).toBe(4);
  });
});
