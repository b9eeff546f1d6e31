/**
 * The conflicts layer's figures: what a resolution does to the notes, and rule detection's bounds. The
 * conflict objects themselves (states, resolutions, evidence) are stores/conflict-edges.ts.
 */

/**
 * What `refuted` does to the losing note (stats and edges in memory.sqlite; the Markdown is untouched).
 * Salience drops by REFUTED_SALIENCE_DROP (never below the floor); every known query class's prior for the
 * note drops by REFUTED_PRIOR_DROP, which lowers the re-rank's type_prior term (×0.25) by 0.1 in every
 * class; typed edges into it (except `contradicts`) keep REFUTED_EDGE_FACTOR of their weight, so the graph
 * scout pulls it in less.
 */
export const REFUTED_SALIENCE_DROP = 0.3;
export const REFUTED_SALIENCE_FLOOR = 0.05;
export const REFUTED_PRIOR_DROP = 0.4;
export const REFUTED_EDGE_FACTOR = 0.5;
/** Weight of the `derived_from` edges a merge adds from each end to the merge note. */
export const MERGED_EDGE_WEIGHT = 0.8;

/** Rule detection's bounds per changed note (cheap by construction). */
export const DETECTION_LIMITS = {
  /** Candidates compared with a changed note (shared entity, link, or lexical neighbour). */
  candidates: 20,
  /** Lexical neighbours asked of the index. */
  lexical: 5,
  /** Sentences read per note. */
  sentences: 400,
  /** Findings recorded in one conflict's evidence. */
  findings: 3,
  /**
   * More changed notes than this queued at once (a sync tool or git pull rewrote the vault) skip rule
   * detection, which would cost candidates × notes reads; their callouts are still synced. `lithos
   * conflicts scan` covers them.
   */
  burst: 100,
} as const;
