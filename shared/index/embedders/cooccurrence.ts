import { tokenize } from '../tokenizer';

/**
 * Word and window co-occurrence counts of a corpus, kept exactly as documents come and go: adding a text
 * then removing the same text leaves every count as it was, and the counts never depend on the order the
 * texts arrived in. That is what lets a vault-learned space be updated note by note and still equal a
 * fresh build (the fit, word-vectors.ts, reads the counts in word order, never in arrival order).
 *
 * Pairs are unordered and counted once per pair of tokens at most `window` tokens apart (stopwords are
 * already gone: tokenize()). Words are interned to small integers in order of first sight; ids are an
 * implementation detail, never an input to the fit.
 */
export class Cooccurrence {
  private readonly ids = new Map<string, number>();
  private readonly words: string[] = [];
  /** word id → how often it occurs */
  private freq = new Int32Array(1024);
  /** open addressing over (lo, hi) word-id pairs; lo = -1 marks an empty slot */
  private lo = new Int32Array(1 << 16).fill(-1);
  private hi = new Int32Array(1 << 16);
  private cnt = new Int32Array(1 << 16);
  private used = 0;
  /** tokens counted in all (a removal subtracts) */
  tokens = 0;

  constructor(readonly window: number) {
    if (!Number.isInteger(window) || window < 1) throw new RangeError('window must be a positive integer');
  }

  /** Counts a text in (`sign` 1) or out (`sign` -1: the text must have been added before). */
  update(text: string, sign: 1 | -1): void {
    const toks = tokenize(text);
    const seq = new Int32Array(toks.length);
    for (let i = 0; i < toks.length; i++) seq[i] = this.intern(toks[i]);
    for (let i = 0; i < seq.length; i++) {
      this.freq[seq[i]] += sign;
      for (let j = i + 1; j < seq.length && j <= i + this.window; j++) this.bump(seq[i], seq[j], sign);
    }
    this.tokens += sign * seq.length;
  }

  /** Words seen (including those whose count went back to 0), with their counts. */
  vocabulary(): { word: string; count: number }[] {
    const out: { word: string; count: number }[] = [];
    for (let id = 0; id < this.words.length; id++) if (this.freq[id] > 0) out.push({ word: this.words[id], count: this.freq[id] });
    return out;
  }

  count(word: string): number {
    const id = this.ids.get(word);
    return id === undefined ? 0 : this.freq[id];
  }

  /** Calls `fn` for every pair with a positive count, in no particular order (the caller sorts). */
  forEachPair(fn: (a: string, b: string, count: number) => void): void {
    for (let s = 0; s < this.lo.length; s++) {
      if (this.lo[s] >= 0 && this.cnt[s] > 0) fn(this.words[this.lo[s]], this.words[this.hi[s]], this.cnt[s]);
    }
  }

  /** Distinct pairs held (including pairs whose count went back to 0). */
  pairSlots(): number {
    return this.used;
  }

  /** Bytes held by the typed arrays (the word strings come on top). */
  bytes(): number {
    return this.freq.byteLength + this.lo.byteLength + this.hi.byteLength + this.cnt.byteLength;
  }

  private intern(w: string): number {
    let id = this.ids.get(w);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(w, id);
      this.words.push(w);
      if (id >= this.freq.length) {
        const f = new Int32Array(this.freq.length * 2);
        f.set(this.freq);
        this.freq = f;
      }
    }
    return id;
  }

  private bump(x: number, y: number, sign: number): void {
    if (x === y) return; // a word next to itself says nothing about its contexts
    const a = x < y ? x : y;
    const b = x < y ? y : x;
    const mask = this.lo.length - 1;
    let s = pairHash(a, b) & mask;
    for (;;) {
      const at = this.lo[s];
      if (at === -1) break;
      if (at === a && this.hi[s] === b) {
        this.cnt[s] += sign;
        return;
      }
      s = (s + 1) & mask;
    }
    this.lo[s] = a;
    this.hi[s] = b;
    this.cnt[s] = sign;
    if (++this.used * 2 > this.lo.length) this.rehash();
  }

  private rehash(): void {
    const { lo, hi, cnt } = this;
    this.lo = new Int32Array(lo.length * 2).fill(-1);
    this.hi = new Int32Array(lo.length * 2);
    this.cnt = new Int32Array(lo.length * 2);
    const mask = this.lo.length - 1;
    for (let s = 0; s < lo.length; s++) {
      if (lo[s] < 0) continue;
      let t = pairHash(lo[s], hi[s]) & mask;
      while (this.lo[t] !== -1) t = (t + 1) & mask;
      this.lo[t] = lo[s];
      this.hi[t] = hi[s];
      this.cnt[t] = cnt[s];
    }
  }
}

function pairHash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 13)) >>> 0;
}
