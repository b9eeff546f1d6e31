/**
 * Spaced repetition of notes (docs/learning.md → Decay): a use (cited, drawn on, accepted — never a mere
 * retrieval) is a successful recall. Each note has a recall interval, its stability S in days, kept in
 * node_stats.spaced_rep_strength: it starts at SM-2's first interval and is multiplied by SM-2's default ease
 * at each use that comes at least S days after the previous one (a use sooner than that is massed practice
 * and does not lengthen it). How likely the note is still "remembered" now, its retrievability R, falls with
 * the time since its last use relative to S: R = 1 / (1 + t / (9·S)) (FSRS's forgetting curve, for which S
 * is the interval at which R is 0.9). A note never used has R = 0. The constants are the published
 * defaults, not tuned here. Learning (feedback) moves S; retrieval (the re-rank) reads recallStrength. Lives
 * in the model layer because both do.
 */

export const SPACED_REPETITION = {
  /** SM-2's first interval, in days: the stability of a note used once (and node_stats' starting value). */
  first_interval_days: 1,
  /** SM-2's default ease factor: what a spaced use multiplies the interval by. */
  ease: 2.5,
  /** FSRS: R(t) = 1 / (1 + t / (this · S)), so that R(S) = 0.9. */
  curve: 9,
} as const;

const DAY_MS = 24 * 3600 * 1000;

interface RecallState {
  /** Stability S in days (node_stats.spaced_rep_strength). */
  spaced_rep_strength: number;
  /** ms of the last use, null when never used. */
  last_used_at: number | null;
}

/** Stability after a successful recall at `now`: ×ease when the previous use is at least one interval back. */
export function stabilityAfterUse(s: RecallState, now: number): number {
  const S = Math.max(SPACED_REPETITION.first_interval_days, s.spaced_rep_strength);
  if (s.last_used_at === null) return S;
  const days = (now - s.last_used_at) / DAY_MS;
  return days >= S ? S * SPACED_REPETITION.ease : S;
}

/**
 * What the re-rank reads: retrievability × how far spaced recall has lengthened the interval (1 − first/S).
 * 0 until a use comes at least one interval after the previous one — a note used once, or only in one
 * sitting, is not yet a memory that lasts (recency and salience already count such uses) — then rising
 * toward R with each spaced recall: 0.6·R at S = 2.5 days, 0.84·R at 6.25, 0.94·R at 15.6.
 */
export function recallStrength(s: RecallState, now: number): number {
  const S = Math.max(SPACED_REPETITION.first_interval_days, s.spaced_rep_strength);
  return retrievability(s, now) * (1 - SPACED_REPETITION.first_interval_days / S);
}

/** Retrievability in [0,1] at `now`: 1 just after a use, 0.9 one interval later, 0 for a note never used. */
export function retrievability(s: RecallState, now: number): number {
  if (s.last_used_at === null) return 0;
  const S = Math.max(SPACED_REPETITION.first_interval_days, s.spaced_rep_strength);
  const days = Math.max(0, (now - s.last_used_at) / DAY_MS);
  return 1 / (1 + days / (SPACED_REPETITION.curve * S));
}
