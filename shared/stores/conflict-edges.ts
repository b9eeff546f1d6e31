/**
 * Conflict objects: a conflict is a `contradicts` edge in memory.sqlite whose `conflict_state` says how far
 * a person (or agent) got in settling it. Rules open conflicts; only the newest-wins precedence settles one
 * on its own (conflicts/precedence.ts). How such an edge row reads is defined here, beside the rows,
 * because retrieval (below conflicts/) reads resolutions too.
 */
import type { EdgeRow } from './memory-types';

export const CONFLICT_EDGE_TYPE = 'contradicts';

export const CONFLICT_STATES = ['unreviewed', 'accepted_dual', 'superseded', 'refuted', 'merged'] as const;
export type ConflictState = (typeof CONFLICT_STATES)[number];

/** The states a resolution can move a conflict to (everything but `unreviewed`). */
export const RESOLUTIONS = ['accepted_dual', 'superseded', 'refuted', 'merged'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/**
 * Which rule found a conflict (docs/contradictions.md lists what each one matches and misses); `target`: two
 * active decisions on one target (docs/ledger.md), e.g. a person's duplicate written in Obsidian.
 */
export type ConflictRule = 'number' | 'negation' | 'status' | 'cause' | 'target';

/** One disagreeing pair of sentences found by a rule. */
export interface RuleFinding {
  rule: ConflictRule;
  /** The subject phrase both sentences make a claim about, normalised (e.g. "pool size"). */
  subject: string;
  a_sentence: string;
  b_sentence: string;
}

/** Who acts: 'human', an agent id, or a rule name; `kind` decides the edge's provenance_type. */
export interface ConflictActor {
  kind: 'human' | 'agent' | 'rule';
  id: string | null;
}

/** One change a resolution made, for the result and the audit entry. */
export interface ResolutionChange {
  node: string;
  what: string;
  before: unknown;
  after: unknown;
}

export interface ResolutionRecord {
  resolution: Resolution;
  /** 'human' or an agent id. */
  resolver: string;
  /** superseded/refuted: the note that stands; merged: the merge note. */
  winner_id: string | null;
  /** superseded/refuted: the other end. */
  loser_id: string | null;
  /** ISO time. */
  at: string;
  /** Settled by the note types' precedence (newest wins), not by a person or agent: open to review (resolve again). */
  automatic?: boolean;
}

/**
 * What a conflict edge's `evidence` holds. Explicit conflicts keep the caller's evidence under `detail`
 * (a string becomes `summary`); rule conflicts carry `rule` and `findings`; a resolution adds `resolution`.
 */
export interface ConflictEvidence {
  summary?: string;
  detail?: unknown;
  rule?: ConflictRule;
  findings?: RuleFinding[];
  resolution?: ResolutionRecord;
  [key: string]: unknown;
}

export interface Conflict {
  edge_id: string;
  /** The two ends: `a` is the edge's from_id, `b` its to_id. */
  a: string;
  b: string;
  state: ConflictState;
  evidence: ConflictEvidence;
  provenance_type: EdgeRow['provenance_type'];
  provenance_actor: string;
  created_at: number;
  updated_at: number;
}

/** Whether a person or agent still has to look at it: unreviewed, or settled automatically (newest wins). */
export function openToReview(c: Pick<Conflict, 'state' | 'evidence'>): boolean {
  return c.state === 'unreviewed' || c.evidence.resolution?.automatic === true;
}

export function isConflictState(s: unknown): s is ConflictState {
  return typeof s === 'string' && (CONFLICT_STATES as readonly string[]).includes(s);
}

export function toConflict(e: EdgeRow): Conflict {
  const ev = e.evidence && typeof e.evidence === 'object' && !Array.isArray(e.evidence) ? (e.evidence as ConflictEvidence) : e.evidence === null || e.evidence === undefined ? {} : { detail: e.evidence };
  return {
    edge_id: e.edge_id,
    a: e.from_id,
    b: e.to_id,
    state: isConflictState(e.conflict_state) ? e.conflict_state : 'unreviewed',
    evidence: ev,
    provenance_type: e.provenance_type,
    provenance_actor: e.provenance_actor,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

/** An explicit caller's evidence in the canonical shape: a string is a summary, an object is kept, anything else is `detail`. */
export function normaliseEvidence(evidence: unknown): ConflictEvidence {
  if (evidence === undefined || evidence === null) return {};
  if (typeof evidence === 'string') return { summary: evidence };
  if (typeof evidence === 'object' && !Array.isArray(evidence)) return { ...(evidence as Record<string, unknown>) };
  return { detail: evidence };
}
