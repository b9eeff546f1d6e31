/**
 * The query-conditional ignored penalty, the reading side: the words of the questions a note was ignored
 * for (learning/ignored-terms.ts records them from feedback) say for which questions its ignores are
 * evidence. A note passed over for "card processor outage" has told us nothing about "raised garden beds":
 * the re-rank scales the note's ignored penalty by how much of the current question those words cover
 * (IGNORED_TERMS.unrelated is the share it keeps for a question sharing none of them).
 *
 * Fields per scope, as query expansion keeps them ('' = words every reader may learn from; an agent id = that
 * agent's own questions), kept up to date from the store's change log; weights decay at read time.
 */
import { TermFieldIndex } from './term-field-index';

export const IGNORED_TERMS = {
  /**
   * The share of a note's ignored penalty kept for a question sharing none of the words of the questions it
   * was ignored for: the penalty is × (unrelated + (1 − unrelated) × overlap). 1: every ignore counts against
   * every question alike (the penalty as it was before it was query-conditional), and nothing is recorded.
   * 0.05: cross-validated with RERANK.ignored_penalty (retrieval/constants.ts; docs/evaluation.md).
   */
  unrelated: 0.05,
  // Bounds and decay of the recorded words: judgement, as query expansion's (the eval's clock is fixed).
  /** Query terms recorded per feedback (a pasted paragraph does not flood a note's field). */
  max_query_terms: 16,
  /** Terms kept per note and scope (the weakest are dropped). */
  max_terms: 64,
  /** A term's weight halves over this many days without another ignore for it. */
  half_life_days: 90,
};

export class IgnoredTermsIndex extends TermFieldIndex {
  /** How much of the query the note's ignored-for words cover, in [0, 1] (TermFieldIndex.coverage). */
  overlap(terms: readonly string[], agentId: string | null, now: number): (id: string) => number {
    return this.coverage(terms, agentId, now, IGNORED_TERMS.half_life_days);
  }
}
