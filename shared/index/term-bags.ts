import { contentHash } from '../model/hash';
import type { DocTerms } from './postings';
import { tokenize } from './tokenizer';

/**
 * A note's BM25 term bag as persisted in the cache (term ids of the persisted dictionary, ascending, with
 * their counts and the token count), so a warm start can skip tokenising. It is valid only for the exact
 * lexical text it was counted from, identified by `lexHash`.
 */
export interface TermBag extends DocTerms {
  lexHash: string;
  /**
   * Set by a caller that knows the bag was counted from exactly the text it is now inserted with (the cache
   * drops a note's bag whenever it rewrites the note, see TermBagSync): its lexHash is then taken as is and
   * the text is neither built nor hashed. Still checked for shape, and for the current tokenizer.
   */
  current?: boolean;
}

/** Bump when lexicalText() (index-doc.ts) changes what it builds: stored bags then count as stale. */
const LEXICAL_TEXT_VERSION = 1;

/** Exercises case folding, stemming-like rules, stopwords, apostrophes, digits and long tokens. */
const PROBE = "The Quick-brown FOXES aren't jumping over 3.14 lazy dogs' cells, naïve café résumé x" + 'y'.repeat(80);
let fingerprint: string | null = null;

/**
 * Hash of a note's lexical text, prefixed with a fingerprint of the tokenizer's output on a fixed probe:
 * a tokenizer or stopword change that shows on the probe invalidates every stored bag.
 */
export function lexicalHash(text: string): string {
  return tokenizerFingerprint() + contentHash(text);
}

function tokenizerFingerprint(): string {
  fingerprint ??= contentHash(`${LEXICAL_TEXT_VERSION} ${tokenize(PROBE).join(' ')}`);
  return fingerprint;
}

/** A bag whose caller vouches for it (`current`) and that was counted by this tokenizer: no text needed. */
export function currentBag(bag: TermBag | undefined, termCount: number): DocTerms | undefined {
  if (!bag?.current || !bag.lexHash.startsWith(tokenizerFingerprint())) return undefined;
  return usableBag(bag, bag.lexHash, termCount);
}

/**
 * The bag to insert instead of tokenising `text` whose hash is `hash`, or undefined when the bag is
 * absent, was built from other text, or is malformed for a dictionary of `termCount` terms.
 */
export function usableBag(bag: TermBag | undefined, hash: string, termCount: number): DocTerms | undefined {
  if (!bag || bag.lexHash !== hash || bag.ids.length !== bag.tfs.length) return undefined;
  const { ids, tfs } = bag;
  let sum = 0;
  let prev = -1;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (id >= termCount || id <= prev || tfs[i] === 0) return undefined;
    prev = id;
    sum += tfs[i];
  }
  // Counts are capped at 0xffff per term, so the length can exceed their sum but never fall short of it.
  if (!Number.isInteger(bag.length) || bag.length < sum) return undefined;
  return { ids: bag.ids, tfs: bag.tfs, length: bag.length };
}
