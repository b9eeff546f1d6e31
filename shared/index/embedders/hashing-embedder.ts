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
// v2: the tokenizer's stop set changed (NLTK's), so v1 vectors are not comparable.
export const HASHING_EMBEDDER_VERSION = 'v2';
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
    const counts = FeatureCounts.shared;
    counts.reset();
    const words = tokenize(text);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      counts.bump(tagged(hashString(SEED_UNIGRAM, w, 0), 0));
      if (i + 1 < words.length) counts.bump(tagged(hashString(hashString(SEED_BIGRAM, w, 0), words[i + 1], 0x20), 1));
      charGrams(counts, w);
    }
    const vec = new Float32Array(this.dimensions);
    // Insertion order, as a Map would iterate: the float sums, and so the vectors, stay bit-identical.
    for (let n = 0; n < counts.size; n++) {
      const key = counts.keyAt(n);
      const tf = counts.countAt(n);
      const family = key & 3;
      const weight = family === 0 ? UNIGRAM_WEIGHT : family === 1 ? BIGRAM_WEIGHT : CHARGRAM_WEIGHT;
      const h = fmix32(key >>> 2);
      const value = weight * (1 + log(tf));
      vec[(h >>> 1) % this.dimensions] += h & 1 ? value : -value;
    }
    let norm = 0;
    for (let i = 0; i < vec.length; i++) norm += vec[i] * vec[i];
    if (norm > 0) {
      const scale = 1 / sqrt(norm);
      for (let i = 0; i < vec.length; i++) vec[i] *= scale;
    }
    return vec;
  }
}

// Local aliases: global lookups in hot loops are slow in sandboxed contexts (jest's vm, some webviews).
const imul = Math.imul;
const log = Math.log;
const sqrt = Math.sqrt;

/**
 * Feature key → count, as an open-addressing table over typed arrays that is reused between calls: a Map
 * here was most of the embedder's time (one allocation-heavy set per feature, ~8 features per word).
 */
class FeatureCounts {
  static readonly shared = new FeatureCounts();
  private slots = new Int32Array(1 << 12).fill(-1); // → index into keys/counts, -1 empty
  private keys = new Int32Array(1 << 11);
  private counts = new Int32Array(1 << 11);
  size = 0;

  reset(): void {
    if (this.size > 0) this.slots.fill(-1);
    this.size = 0;
  }

  keyAt(n: number): number {
    return this.keys[n];
  }

  countAt(n: number): number {
    return this.counts[n];
  }

  bump(key: number): void {
    const mask = this.slots.length - 1;
    let i = fmix32(key) & mask;
    for (;;) {
      const at = this.slots[i];
      if (at === -1) break;
      if (this.keys[at] === key) {
        this.counts[at]++;
        return;
      }
      i = (i + 1) & mask;
    }
    if (this.size === this.keys.length) this.growEntries();
    this.keys[this.size] = key;
    this.counts[this.size] = 1;
    this.slots[i] = this.size++;
    if (this.size * 2 > this.slots.length) this.rehash();
  }

  private growEntries(): void {
    const keys = new Int32Array(this.keys.length * 2);
    keys.set(this.keys);
    const counts = new Int32Array(this.counts.length * 2);
    counts.set(this.counts);
    this.keys = keys;
    this.counts = counts;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = this.slots.length - 1;
    for (let n = 0; n < this.size; n++) {
      let i = fmix32(this.keys[n]) & mask;
      while (this.slots[i] !== -1) i = (i + 1) & mask;
      this.slots[i] = n;
    }
  }
}

/** Feature keys carry their family in the low two bits (0 unigram, 1 bigram, 2 char n-gram). */
function charGrams(counts: FeatureCounts, word: string): void {
  const n = word.length + 2;
  for (let i = 0; i + 3 <= n; i++) {
    let h3 = SEED_CHAR3;
    for (let j = i; j < i + 3; j++) h3 = imul(h3 ^ boundedCode(word, j, n), 0x01000193);
    counts.bump(tagged(h3, 2));
    if (i + 4 <= n) counts.bump(tagged(imul(h3 ^ SEED_CHAR4 ^ boundedCode(word, i + 3, n), 0x01000193), 2));
  }
}

/** The word's units with a start and an end mark around them. */
function boundedCode(word: string, i: number, n: number): number {
  return i === 0 ? BOUNDARY_START : i === n - 1 ? BOUNDARY_END : word.charCodeAt(i - 1);
}

/** FNV-1a over a string's UTF-16 units, continuing from `h`, optionally after a separator unit. */
function hashString(h: number, s: string, separator: number): number {
  if (separator) h = imul(h ^ separator, 0x01000193);
  for (let i = 0; i < s.length; i++) h = imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

function tagged(h: number, family: number): number {
  return ((h >>> 2) << 2) | family;
}

/** Murmur3's finaliser: spreads FNV's weak low bits before taking bucket and sign. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
