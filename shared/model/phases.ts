/**
 * Phases and vitality of the knowledge ledger's entries (LedgerMind's lifecycle; docs/ledger.md, "Phases and
 * vitality"). Pure: the learning layer gathers the signals (learning/ledger-phases.ts) and keeps the phase in
 * memory.sqlite; retrieval reads the phase and works vitality out itself (retrieval/ledger-rank.ts). Both
 * layers use these rules, so they live in the model layer.
 *
 * Every signal comes from use — feedback that found the entry used (cited, drawn on by the output, an
 * output accepted), misleading or ignored, and the structure such use and people built — never from being
 * retrieved: retrieval_count and last_retrieved_at are telemetry and nothing here reads them.
 */
import { LEDGER_STATES, type LedgerKind, type Phase, type Vitality } from './ledger';

const DAY_MS = 24 * 3600 * 1000;

/** LedgerMind's thresholds, as the issue states them. */
export const PHASE_RULES = {
  /** pattern → emergent: seen ≥ this, or confidence ≥ emergent_confidence … */
  emergent_seen: 3,
  emergent_confidence: 0.5,
  /** … and lived > this many days, or seen ≥ emergent_seen_instead_of_lived. */
  emergent_lived_days: 0.5,
  emergent_seen_instead_of_lived: 5,
  /** emergent → canonical: coverage, stability and removal cost above these, and vitality active. */
  canonical_coverage: 0.3,
  canonical_stability: 0.6,
  canonical_removal_cost: 0.5,
} as const;

/** Vitality by the days since the entry's last activity: active < 7 ≤ decaying ≤ 30 < dormant. */
export const VITALITY_DAYS = { decaying: 7, dormant: 30 } as const;

/** What each vitality takes off the entry's stated confidence (its effective confidence; frontmatter is never rewritten). */
export const VITALITY_CONFIDENCE_PENALTY: Record<Vitality, number> = { active: 0, decaying: 0.05, dormant: 0.2 };

/** Removal cost = dependants / (dependants + this): 0 → 0, 1 → 0.33, 2 → 0.5, 3 → 0.6. */
export const REMOVAL_COST_HALF = 2;
/** A note used together with the entry this many times counts as one that depends on it. */
export const CO_USE_DEPENDANT_MIN = 2;
/** Stability is multiplied by this for an open contradiction (or one the entry lost), and again for a contested claim. */
export const CONTRADICTED_STABILITY = 0.5;

/**
 * The last activity of an entry: its last use, or — never used since — when it was written (updated_at,
 * else created_at, else the file's time). Writing it is evidence someone needs it; being shown is not.
 */
export function lastActivity(lastUsedAt: number | null, writtenAt: number): number {
  return Math.max(lastUsedAt ?? 0, writtenAt);
}

/** Active when the last activity is under 7 days old, dormant past 30, decaying from 7 to 30 days inclusive. */
export function vitalityAt(lastActive: number, now: number): Vitality {
  const days = Math.max(0, now - lastActive) / DAY_MS;
  if (days < VITALITY_DAYS.decaying) return 'active';
  return days > VITALITY_DAYS.dormant ? 'dormant' : 'decaying';
}

/** When the vitality in force at `now` began (the last activity, or 7 / 30 days after it). */
export function vitalitySince(lastActive: number, vitality: Vitality): number {
  if (vitality === 'active') return lastActive;
  return lastActive + (vitality === 'decaying' ? VITALITY_DAYS.decaying : VITALITY_DAYS.dormant) * DAY_MS;
}

/** The stated confidence less the vitality's penalty, never below 0. */
export function effectiveConfidence(stated: number, vitality: Vitality): number {
  return Math.max(0, Math.min(1, stated) - VITALITY_CONFIDENCE_PENALTY[vitality]);
}

/** What the phase rules read of one entry (learning/ledger-phases.ts gathers it). */
export interface PhaseInput {
  /** Frontmatter `confidence` (1 when absent). */
  stated_confidence: number;
  /** node_stats: times feedback counted the entry used, ignored, misleading. */
  use_count: number;
  ignored_count: number;
  misleading_count: number;
  /** ms of the first and the last use (null: never used, or the first not known). */
  first_used_at: number | null;
  last_used_at: number | null;
  /** ms the note was last written (updated_at, else created_at, else the file's time). */
  written_at: number;
  /** Uses of every entry in the entry's group (its decision target, else its kind and namespace), this one's included. */
  group_uses: number;
  /** An open `contradicts` edge touches it, or a resolved one it lost. */
  contradicted: boolean;
  /** A claim in state `contested`. */
  contested: boolean;
  /** Distinct notes that depend on it (links in, depends_on/derived_from/is_example_of into it, supports out of it, co-use). */
  dependants: number;
}

/** The signals, each as docs/ledger.md defines it. */
export interface PhaseSignals {
  seen: number;
  confidence: number;
  effective_confidence: number;
  lived_days: number;
  coverage: number;
  stability: number;
  removal_cost: number;
  vitality: Vitality;
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;

export function phaseSignals(i: PhaseInput, now: number): PhaseSignals {
  const vitality = vitalityAt(lastActivity(i.last_used_at, i.written_at), now);
  const judged = i.use_count + i.ignored_count + i.misleading_count;
  const effective = effectiveConfidence(i.stated_confidence, vitality);
  // Confidence from use: the stated confidence, less the vitality penalty, times the share of the times
  // feedback judged the entry in which it was used (0 before any judgement).
  const useShare = judged > 0 ? i.use_count / judged : 0;
  const lived = i.first_used_at !== null && i.last_used_at !== null ? Math.max(0, i.last_used_at - i.first_used_at) / DAY_MS : 0;
  let stability = judged > 0 ? 1 - i.misleading_count / judged : 1;
  if (i.contradicted) stability *= CONTRADICTED_STABILITY;
  if (i.contested) stability *= CONTRADICTED_STABILITY;
  return {
    seen: i.use_count,
    confidence: round(effective * useShare),
    effective_confidence: round(effective),
    lived_days: round(lived),
    coverage: i.group_uses > 0 ? round(Math.min(1, i.use_count / i.group_uses)) : 0,
    stability: round(stability),
    removal_cost: round(i.dependants / (i.dependants + REMOVAL_COST_HALF)),
    vitality,
  };
}

/** pattern → emergent (LedgerMind): (seen ≥ 3 or confidence ≥ 0.5) and (lived > ½ day or seen ≥ 5). */
export function reachesEmergent(s: PhaseSignals): boolean {
  const r = PHASE_RULES;
  return (s.seen >= r.emergent_seen || s.confidence >= r.emergent_confidence) && (s.lived_days > r.emergent_lived_days || s.seen >= r.emergent_seen_instead_of_lived);
}

/** emergent → canonical (LedgerMind): coverage > 0.3, stability > 0.6, removal cost > 0.5, and active. */
export function reachesCanonical(s: PhaseSignals): boolean {
  const r = PHASE_RULES;
  return s.coverage > r.canonical_coverage && s.stability > r.canonical_stability && s.removal_cost > r.canonical_removal_cost && s.vitality === 'active';
}

/**
 * The phase after one evaluation: at most one step forward, so each phase is held until at least the next
 * evaluation. Phases never move back, except that a retired entry (superseded, deprecated, aborted, refuted,
 * merged, dead, evolved) leaves canonical for emergent; a retired entry is never promoted.
 */
export function nextPhase(current: Phase, s: PhaseSignals, retired: boolean): Phase {
  if (retired) return current === 'canonical' ? 'emergent' : current;
  if (current === 'pattern') return reachesEmergent(s) ? 'emergent' : 'pattern';
  if (current === 'emergent') return reachesCanonical(s) ? 'canonical' : 'emergent';
  return 'canonical';
}

/** States in which an entry still stands; every other state of its kind has retired it. */
const STANDING_STATES: Record<LedgerKind, readonly string[]> = {
  decision: ['active'],
  claim: ['unverified', 'believed', 'contested'],
  workflow: ['current'],
  construct: ['active'],
};

/**
 * Whether an entry no longer stands: a state of its kind that retires it (superseded, deprecated, aborted,
 * refuted, merged, dead, evolved), or a `superseded_by`. A state the kind does not know retires nothing
 * (the ledger's validation reports it).
 */
export function isRetired(kind: LedgerKind, state: string | null, supersededBy: boolean): boolean {
  if (supersededBy) return true;
  const s = state?.trim().toLowerCase() ?? '';
  return (LEDGER_STATES[kind] as readonly string[]).includes(s) && !STANDING_STATES[kind].includes(s);
}
