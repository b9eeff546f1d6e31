import type { Cooccurrence } from './cooccurrence';
import { truncatedEigen, type SparseRows } from './sparse-eigen';

/**
 * Word vectors learned from a corpus's own co-occurrence counts: positive PMI with context-distribution
 * smoothing (Levy, Goldberg & Dagan 2015) factorised by a seeded randomized eigen-decomposition (sparse-eigen.ts). Words that share
 * contexts (car and automobile, both next to "drive", "engine", "parked") get close vectors even when they
 * never occur together. The fit reads the counts in a fixed order (vocabulary by count then spelling,
 * pairs by vocabulary index), so equal counts give bit-identical vectors whatever order the notes came in.
 */
export interface WordVectorParams {
  /** size of the vectors (the SVD's rank) */
  dims: number;
  /** window half-width of the counts (Cooccurrence's, recorded here for the space id) */
  window: number;
  /** words seen fewer times are left out (no reliable contexts) */
  minCount: number;
  /** the most frequent words kept at most (bounds the fit's time and memory) */
  maxVocab: number;
  /** pairs seen fewer times are left out: most pairs are seen once, and they cost more time than they teach */
  minPairCount: number;
  /** context-distribution smoothing exponent (0.75 in Levy et al.) */
  cds: number;
  /** singular values are raised to this power before scaling the vectors (0.5: "eigenvalue weighting") */
  eig: number;
  seed: number;
}

export const DEFAULT_WORD_VECTOR_PARAMS: WordVectorParams = {
  dims: 128,
  window: 5,
  minCount: 2,
  maxVocab: 12000,
  minPairCount: 2,
  cds: 0.75,
  eig: 0.5,
  seed: 0x5eed,
};

const PAIR_COUNT_SPAN = 2 ** 24;
const PAIR_COUNT_CAP = PAIR_COUNT_SPAN - 1;

/** Fewer fitted words than this and there is nothing to learn from: the space stays untrained. */
export const MIN_VOCABULARY = 20;

export interface WordVectors {
  dims: number;
  /** vocabulary, in the fit's order */
  words: string[];
  /** word i's unit vector at [i·dims, (i+1)·dims) */
  vectors: Float32Array;
  /** how often each word occurred (for SIF weights) */
  counts: Int32Array;
  /** tokens of the corpus the counts came from */
  tokens: number;
}

export function fitWordVectors(counts: Cooccurrence, p: WordVectorParams): WordVectors | null {
  const vocab = counts
    .vocabulary()
    .filter((v) => v.count >= p.minCount)
    .sort((x, y) => y.count - x.count || (x.word < y.word ? -1 : x.word > y.word ? 1 : 0))
    .slice(0, p.maxVocab);
  if (vocab.length < Math.max(MIN_VOCABULARY, p.dims + 1)) return null;
  const index = new Map<string, number>();
  vocab.forEach((v, i) => index.set(v.word, i));
  const n = vocab.length;

  // Pairs in both directions as one sortable number (row·n + col)·2^24 + count: sorted, the matrix is the
  // same whatever the arrival order (a count above 2^24 - 1 is read as that).
  const keys: number[] = [];
  counts.forEachPair((a, b, c) => {
    if (c < p.minPairCount) return;
    const i = index.get(a);
    const j = index.get(b);
    if (i === undefined || j === undefined) return;
    const cc = Math.min(c, PAIR_COUNT_CAP);
    keys.push((i * n + j) * PAIR_COUNT_SPAN + cc, (j * n + i) * PAIR_COUNT_SPAN + cc);
  });
  const sorted = Float64Array.from(keys).sort();
  const rowSum = new Float64Array(n);
  for (const key of sorted) rowSum[Math.floor(key / PAIR_COUNT_SPAN / n)] += key % PAIR_COUNT_SPAN;
  let total = 0;
  let smoothed = 0;
  for (let i = 0; i < n; i++) {
    total += rowSum[i];
    smoothed += Math.pow(rowSum[i], p.cds);
  }
  if (total === 0) return null;
  const logTotal = Math.log(total);
  const logPs = new Float64Array(n); // log P_α(i) = log(c_i^α / Σ c^α)
  for (let i = 0; i < n; i++) logPs[i] = p.cds * Math.log(rowSum[i]) - Math.log(smoothed);

  // PPMI(i, j) = max(0, log P(i, j) − log P_α(i) − log P_α(j)): smoothing on both sides keeps the matrix
  // symmetric, and rare words no longer get inflated PMI.
  const start = new Int32Array(n + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  let row = 0;
  for (const key of sorted) {
    const c = key % PAIR_COUNT_SPAN;
    const ij = (key - c) / PAIR_COUNT_SPAN;
    const i = Math.floor(ij / n);
    const j = ij - i * n;
    while (row < i) start[++row] = cols.length;
    const pmi = Math.log(c) - logTotal - logPs[i] - logPs[j];
    if (pmi > 0) {
      cols.push(j);
      vals.push(pmi);
    }
  }
  while (row < n) start[++row] = cols.length;
  const matrix: SparseRows = { n, start, col: Int32Array.from(cols), val: Float64Array.from(vals) };
  const rank = Math.min(p.dims, n - 1);
  const { u, s } = truncatedEigen(matrix, rank, p.seed);

  const vectors = new Float32Array(n * p.dims);
  const scale = new Float64Array(rank);
  for (let c = 0; c < rank; c++) scale[c] = Math.pow(s[c], p.eig);
  for (let i = 0; i < n; i++) {
    let norm = 0;
    for (let c = 0; c < rank; c++) norm += (u[i * rank + c] * scale[c]) ** 2;
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let c = 0; c < rank; c++) vectors[i * p.dims + c] = u[i * rank + c] * scale[c] * inv;
  }
  return { dims: p.dims, words: vocab.map((v) => v.word), vectors, counts: Int32Array.from(vocab.map((v) => v.count)), tokens: counts.tokens };
}

/** Cosine of two words' vectors; null when either is not in the vocabulary. */
export function wordCosine(wv: WordVectors, a: string, b: string): number | null {
  const i = wv.words.indexOf(a);
  const j = wv.words.indexOf(b);
  if (i < 0 || j < 0) return null;
  let dot = 0;
  for (let c = 0; c < wv.dims; c++) dot += wv.vectors[i * wv.dims + c] * wv.vectors[j * wv.dims + c];
  return dot;
}
