import type { Embedder } from '../../ports';
import { tokenize } from '../tokenizer';

/**
 * The default, offline embedder: no model, no download, deterministic, pure TypeScript (runs on mobile).
 * Features are word unigrams, word bigrams and character 3- and 4-grams of each word (with boundary
 * marks, so `cell` and `cells` share most of them: a little of the stemming BM25 lacks), each counted
 * with sublinear tf (1 + ln tf), signed-hashed into `dimensions` buckets and L2-normalised.
 * It captures surface overlap, not meaning; a paraphrase sharing word stems lands closer than unrelated text.
 *
 * The spaceId names the version and size: change any constant below and the version must change too,
 * since stored vectors would no longer be comparable.
 */
export const HASHING_EMBEDDER_VERSION = 'v1';
export const HASHING_DEFAULT_DIMENSIONS = 384;

/**
 * Relative weights of the feature families, tuned on SciFact dev in hybrid mode (fusion.ts, lexical 0.7).
 * Hybrid nDCG@10 by (unigram, bigram, chargram): (1, .5, .25) 0.663 · (1, 0, 0) 0.657 · (0, 0, 1) 0.677 ·
 * (.25, .1, 1) 0.677 (chosen) — BM25 already has the words; what vectors add is the sub-word overlap.
 */
export const UNIGRAM_WEIGHT = 0.25;
export const BIGRAM_WEIGHT = 0.1;
export const CHARGRAM_WEIGHT = 1;

const SEED_UNIGRAM = 0x9e3779b1;
const SEED_BIGRAM = 0x85ebca77;
const SEED_CHAR3 = 0xc2b2ae3d;
const SEED_CHAR4 = 0x27d4eb2f;
const BOUNDARY_START = 0x02;
const BOUNDARY_END = 0x03;

export class HashingEmbedder implements Embedder {
  readonly spaceId: string;
  readonly dimensions: number;

  constructor(dimensions: number = HASHING_DEFAULT_DIMENSIONS) {
    if (!Number.isInteger(dimensions) || dimensions < 8) throw new RangeError('dimensions must be an integer ≥ 8');
    this.dimensions = dimensions;
    this.spaceId = `hash-ngram-${HASHING_EMBEDDER_VERSION}-${dimensions}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  /** Synchronous form, for callers that batch themselves. */
  embedOne(text: string): Float32Array {
    const counts = new Map<number, number>();
    const words = tokenize(text);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      bump(counts, tagged(hashString(SEED_UNIGRAM, w, 0), 0));
      if (i + 1 < words.length) bump(counts, tagged(hashString(hashString(SEED_BIGRAM, w, 0), words[i + 1], 0x20), 1));
      charGrams(counts, w);
    }
    const vec = new Float32Array(this.dimensions);
    for (const [key, tf] of counts) {
      const family = key & 3;
      const weight = family === 0 ? UNIGRAM_WEIGHT : family === 1 ? BIGRAM_WEIGHT : CHARGRAM_WEIGHT;
      const h = fmix32(key >>> 2);
      const value = weight * (1 + Math.log(tf));
      vec[(h >>> 1) % this.dimensions] += h & 1 ? value : -value;
    }
    let norm = 0;
    for (let i = 0; i < vec.length; i++) norm += vec[i] * vec[i];
    if (norm > 0) {
      const scale = 1 / Math.sqrt(norm);
      for (let i = 0; i < vec.length; i++) vec[i] *= scale;
    }
    return vec;
  }
}

/** Feature keys carry their family in the low two bits (0 unigram, 1 bigram, 2 char n-gram). */
function bump(counts: Map<number, number>, key: number): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function charGrams(counts: Map<number, number>, word: string): void {
  const n = word.length + 2;
  const code = (i: number): number => (i === 0 ? BOUNDARY_START : i === n - 1 ? BOUNDARY_END : word.charCodeAt(i - 1));
  for (let i = 0; i + 3 <= n; i++) {
    let h3 = SEED_CHAR3;
    for (let j = i; j < i + 3; j++) h3 = Math.imul(h3 ^ code(j), 0x01000193);
    bump(counts, tagged(h3, 2));
    if (i + 4 <= n) bump(counts, tagged(Math.imul(h3 ^ SEED_CHAR4 ^ code(i + 3), 0x01000193), 2));
  }
}

/** FNV-1a over a string's UTF-16 units, continuing from `h`, optionally after a separator unit. */
function hashString(h: number, s: string, separator: number): number {
  if (separator) h = Math.imul(h ^ separator, 0x01000193);
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

function tagged(h: number, family: number): number {
  return ((h >>> 2) << 2) | family;
}

/** Murmur3's finaliser: spreads FNV's weak low bits before taking bucket and sign. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
