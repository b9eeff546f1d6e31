/**
 * A generated lexicon with Zipf frequencies, so BM25 sees realistic term statistics: a few very
 * common short "function words", a long tail of rare longer ones.
 */
import { Rng, ZipfSampler } from './rng';

// No 'q' or 'x' anywhere: the bench uses tokens containing "qx" as guaranteed-unique markers.
const ONSETS = ['', 'b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z',
  'br', 'cr', 'dr', 'fl', 'gr', 'pl', 'pr', 'sh', 'st', 'th', 'tr', 'ch', 'sp', 'bl', 'cl'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou', 'y'];
const CODAS = ['', '', '', 'n', 'r', 's', 'l', 't', 'm', 'nd', 'st', 'rk', 'ng', 'ck'];

function syllable(rng: Rng): string {
  return rng.pick(ONSETS) + rng.pick(VOWELS) + rng.pick(CODAS);
}

/** Syllable count grows with rank (frequent words are short, as in natural language). */
function syllablesFor(rank: number, rng: Rng): number {
  if (rank < 120) return 1;
  if (rank < 2000) return rng.int(1, 2);
  return rng.int(2, 3);
}

export class Vocabulary {
  /** Words by frequency rank: words[0] is the most frequent. */
  readonly words: string[];
  private readonly zipf: ZipfSampler;
  private readonly rankOf = new Map<string, number>();

  constructor(seed: number, size = 40000, exponent = 1.0) {
    const rng = new Rng(seed);
    const seen = new Set<string>();
    this.words = [];
    while (this.words.length < size) {
      const rank = this.words.length;
      const n = syllablesFor(rank, rng);
      let w = '';
      for (let i = 0; i < n; i++) w += syllable(rng);
      if (w.length < 2 || seen.has(w)) continue;
      seen.add(w);
      this.rankOf.set(w, rank);
      this.words.push(w);
    }
    this.zipf = new ZipfSampler(size, exponent);
  }

  /** One word drawn with Zipf frequency. */
  word(rng: Rng): string {
    return this.words[this.zipf.sample(rng)];
  }

  /** A word drawn with Zipf frequency among ranks [from, to): content words, not function words. */
  contentWord(rng: Rng, from = 150, to = this.words.length): string {
    for (;;) {
      const r = this.zipf.sample(rng);
      if (r >= from && r < to) return this.words[r];
    }
  }

  rank(word: string): number | undefined {
    return this.rankOf.get(word);
  }
}

export function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}
