import { mmrLambda } from '../../shared/retrieval/stages/choose';
import type { Ranked } from '../../shared/retrieval/rerank';
import { select, type SelectOptions } from '../../shared/retrieval/select';
import type { ScoreTerms } from '../../shared/retrieval/types';
import { MemoryCorpus, type TwinNote } from '../twins/memory-corpus';
import { TERMS } from './receipt-fixture';

/**
 * MMR diversity has a real weight at every temperature: near-duplicates of the best note do not fill the
 * top when a different relevant note exists, even on the coldest (most relevance-minded) scan.
 */
const terms = (base: number): ScoreTerms => ({ ...TERMS, base, scouts: { lexical: base } });
const ranked = (scores: Record<string, number>): Ranked[] =>
  Object.entries(scores)
    .sort((a, b) => b[1] - a[1])
    .map(([id, score]) => ({ id, score, terms: terms(score), candidate: { id, scouts: { lexical: score }, reasons: [], base: score } }));

// Four copies of one incident (vectors a few degrees apart), one other relevant note, and weaker filler.
const notes: TwinNote[] = [
  { id: 'dup-1', vector: [1, 0.02, 0, 0] },
  { id: 'dup-2', vector: [1, 0, 0.02, 0] },
  { id: 'dup-3', vector: [1, 0.03, 0.01, 0] },
  { id: 'dup-4', vector: [1, 0, 0, 0.03] },
  { id: 'other-angle', vector: [0.3, 1, 0, 0] },
  ...['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].map((id, i) => ({ id, vector: [0.2, 0.1 * i, 1, 0.5] })),
];
const corpus = new MemoryCorpus(notes);
const list = ranked({ 'dup-1': 1, 'dup-2': 0.97, 'dup-3': 0.95, 'dup-4': 0.94, 'other-angle': 0.88, f1: 0.5, f2: 0.48, f3: 0.46, f4: 0.44, f5: 0.42, f6: 0.4 });
const opts = (lambda: number): SelectOptions => ({ k: 3, lambda, explorationSlots: 0, explorationBonus: 0, poolFactor: 4, redundantAbove: 0.1 });

test('λ is below 1 at every temperature and falls as the temperature rises', () => {
  expect(mmrLambda(0)).toBeLessThan(1);
  expect(mmrLambda(1)).toBeLessThan(mmrLambda(0));
  expect(mmrLambda(0.5)).toBeLessThan(mmrLambda(0));
  expect(mmrLambda(1)).toBeGreaterThan(0);
});

test('near-duplicates do not fill the top three when a different relevant note exists, even when cold', () => {
  for (const t of [0, 0.5, 1]) {
    const top = select(list, corpus, opts(mmrLambda(t))).map((r) => r.id);
    expect(top[0]).toBe('dup-1');
    expect(top).toContain('other-angle');
  }
});

test('plain ranking (λ = 1) would have filled them: the weight is what makes the difference', () => {
  expect(select(list, corpus, opts(1)).map((r) => r.id)).toEqual(['dup-1', 'dup-2', 'dup-3']);
});

test('similarity at or below the background is no redundancy: unrelated notes keep their order', () => {
  // Every note at cosine 0.3 to every other, with a background of 0.3: MMR must rank by score alone.
  const flat = new MemoryCorpus(['a', 'b', 'c', 'd'].map((id, i) => ({ id, vector: [Math.sqrt(0.3), ...[0, 1, 2, 3].map((j) => (j === i ? Math.sqrt(0.7) : 0))] })));
  const l = ranked({ a: 1, b: 0.9, c: 0.8, d: 0.7 });
  expect(select(l, flat, { ...opts(mmrLambda(1)), redundantAbove: 0.3 }).map((r) => r.id)).toEqual(['a', 'b', 'c']);
});
