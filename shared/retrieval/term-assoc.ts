/**
 * Learned term associations, the reading side: which words of the notes that were used for questions
 * holding a term stand out against the notes merely shown for them (learning/term-assoc.ts counts). A new
 * question is expanded with the strongest such words of its terms, and the association scout runs the
 * lexical search on them: a question worded differently from the note ("my car" → the note saying
 * "vehicle", learned because notes saying "vehicle" were the ones used for "car") and notes never returned
 * yet (they share the words, not the history) are found.
 *
 * For a term a with St notes shown and Ut used, and a word b held by S of the shown and U of the used ones:
 *   p = (Ut + 1) / (St + 2)                          — how often a shown note was used at all for a
 *   lift = ((U + m·p) / (S + m)) / p                 — how much more often a shown note holding b was (m: pseudo_count)
 *   value = ln(lift) · ln(1 + U)                     — strong and often seen
 * A word qualifies with St ≥ min_term_shown, S ≥ min_word_shown, lift ≥ min_lift and is not a query term;
 * each word keeps its best value over the query's terms, and the max_words best expand the query.
 */
import type { TermAssocRow } from '../stores/memory-types';

/** The signal's constants, chosen by cross-validation (`lithos eval --feedback-split 0.5 --cv`, docs/learning.md). */
export const TERM_ASSOC = {
  /** Query terms counted per feedback, and read per retrieval. */
  max_query_terms: 16,
  /** Distinct words of a note's text counted per feedback (the first ones: title and opening). */
  max_note_words: 256,
  /** Words kept per term and scope (the lowest value dropped). */
  max_words_per_term: 64,
  /** Terms kept per scope (the fewest showings dropped). */
  max_terms: 4096,
  /** A term expands once notes were shown this many times for queries holding it. */
  min_term_shown: 5,
  /** A word qualifies once this many notes shown for the term held it. */
  min_word_shown: 2,
  /** Smoothing of a word's use rate toward the term's. */
  pseudo_count: 3,
  /** A word qualifies from this lift. */
  min_lift: 1.5,
  /** Most words added to a query (3: the cross-validation objective's pick on all dev data; 5 and 10 did worse). */
  max_words: 3,
  /** 1: the scout searches the query's own text with the words added; 0: the words alone (worse on most dev sets, docs/learning.md). */
  with_query: 1,
  /** Decay forgets terms shown fewer than prune_below times and not counted for max_age_days. */
  prune_below: 3,
  max_age_days: 180,
};

export interface TermCounts {
  shown: number;
  used: number;
  words: Map<string, [number, number]>;
}

/** The rows of each term summed over the scopes read (the shared scope and the reader's own). */
export function mergeScopes(rows: readonly TermAssocRow[]): Map<string, TermCounts> {
  const out = new Map<string, TermCounts>();
  for (const r of rows) {
    let t = out.get(r.term);
    if (!t) out.set(r.term, (t = { shown: 0, used: 0, words: new Map() }));
    t.shown += r.shown;
    t.used += r.used;
    for (const [w, [s, u]] of Object.entries(r.words)) {
      const c = t.words.get(w);
      t.words.set(w, c ? [c[0] + s, c[1] + u] : [s, u]);
    }
  }
  return out;
}

/** ln(lift) · ln(1 + used) of a word for a term (formula above); 0 when it was never used. */
export function wordValue(termShown: number, termUsed: number, shown: number, used: number): number {
  if (used <= 0) return 0;
  const p = (termUsed + 1) / (termShown + 2);
  const m = TERM_ASSOC.pseudo_count;
  return Math.log((used + m * p) / (shown + m) / p) * Math.log1p(used);
}

export interface Association {
  word: string;
  /** The query term it was learned for. */
  term: string;
  value: number;
}

/** The words to add to a query with these terms, strongest first (at most max_words); none without evidence. */
export function associatedWords(rows: readonly TermAssocRow[], queryTerms: readonly string[]): Association[] {
  const q = new Set(queryTerms);
  const k = TERM_ASSOC;
  const minValue = Math.log(k.min_lift);
  const best = new Map<string, Association>();
  for (const [term, t] of mergeScopes(rows)) {
    if (!q.has(term) || t.shown < k.min_term_shown) continue;
    for (const [word, [s, u]] of t.words) {
      if (q.has(word) || s < k.min_word_shown || u <= 0) continue;
      const v = wordValue(t.shown, t.used, s, u);
      // value ≥ ln(min_lift)·ln(1+u) ⇔ lift ≥ min_lift
      if (!(v >= minValue * Math.log1p(u))) continue;
      const prev = best.get(word);
      if (!prev || v > prev.value || (v === prev.value && term < prev.term)) best.set(word, { word, term, value: v });
    }
  }
  return [...best.values()].sort((a, b) => b.value - a.value || (a.word < b.word ? -1 : 1)).slice(0, k.max_words);
}
