/**
 * How a knowledge-ledger entry's phase and vitality move it in the re-rank (docs/ledger.md, "Phases and
 * vitality"): canonical knowledge outranks a pattern, dormant knowledge fades but never vanishes. Only the
 * ledger's kinds are touched; every other note keeps its score exactly.
 *
 * The factors are small on purpose: no dev dataset holds ledger entries, so they cannot be cross-validated
 * (docs/evaluation.md). They say an order among otherwise equal entries, not how far to trust one.
 */
import { isLedgerKind, type Phase, type Vitality } from '../model/ledger';
import { lastActivity, vitalityAt } from '../model/phases';
import type { NodeStats } from '../stores/memory-types';
import type { CorpusNote } from './scout-contract';

export const LEDGER_RANK = {
  phase: { pattern: 1, emergent: 1.05, canonical: 1.1 } satisfies Record<Phase, number>,
  /** 1 − the vitality's confidence penalty (model/phases.ts): a dormant entry keeps 0.8 of its score, never 0. */
  vitality: { active: 1, decaying: 0.95, dormant: 0.8 } satisfies Record<Vitality, number>,
} as const;

/** The entry's multiplier: phase × vitality, in [0.8, 1.1]. */
export function ledgerFactor(phase: Phase, vitality: Vitality): number {
  return LEDGER_RANK.phase[phase] * LEDGER_RANK.vitality[vitality];
}

/** A score scaled by the factor in the factor's direction: a negative score is divided, so > 1 always lifts and < 1 always lowers. */
export function scaled(score: number, factor: number): number {
  return score >= 0 ? score * factor : score / factor;
}

/**
 * The ledger standing that ranks a note: null for a note of another type, or without the corpus's phases.
 * The phase is the stored one (learning evaluates it from use); vitality is read off the last use or write at `now`.
 */
export function rankStanding(note: CorpusNote, stats: NodeStats, phaseOf: ((id: string) => Phase) | undefined, now: number): { phase: Phase; vitality: Vitality; factor: number } | null {
  if (!phaseOf || !isLedgerKind(note.note_type)) return null;
  const phase = phaseOf(note.id);
  const vitality = vitalityAt(lastActivity(stats.last_used_at, note.updated_at), now);
  return { phase, vitality, factor: ledgerFactor(phase, vitality) };
}
