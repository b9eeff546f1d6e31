/** Row shapes of memory.sqlite (re-exported by memory-store.ts, which is what callers import). */
import { SPACED_REPETITION } from '../model/spaced-repetition';
import type { EventActorKind, EventKind, EventStatus } from '../model/events';
import type { Phase, Vitality } from '../model/ledger';
import type { ReplicaOp } from './replica-rows';

export type { ReplicaDeviceRow, ReplicaOp, ShareRow } from './replica-rows';

export interface NodeRow {
  node_id: string;
  /** null while tombstoned. */
  path: string | null;
  id_source: 'frontmatter' | 'registry';
  content_hash: string | null;
  deleted_at: number | null;
  /** The path the note had when it was deleted. */
  last_path: string | null;
}

export interface EdgeRow {
  edge_id: string;
  from_id: string;
  to_id: string;
  /** One of EDGE_TYPES or any other non-empty string. */
  type: string;
  weight: number;
  namespace: string;
  created_at: number;
  updated_at: number;
  provenance_actor: string;
  provenance_type: 'human' | 'agent' | 'rule';
  /** Any JSON-serialisable value. */
  evidence: unknown;
  conflict_state: string | null;
}

export interface NodeStats {
  node_id: string;
  salience: number;
  retrieval_count: number;
  last_retrieved_at: number | null;
  last_used_at: number | null;
  /** Times feedback counted the note as used (cited, supported by the output, or accepted). */
  use_count: number;
  ignored_count: number;
  misleading_count: number;
  /**
   * Spaced repetition's recall interval (stability) in days: starts at SM-2's first interval and grows with
   * each use spaced at least one interval after the previous (model/spaced-repetition.ts).
   */
  spaced_rep_strength: number;
  per_queryclass_priors: Record<string, number>;
}

export interface Coactivation {
  other: string;
  namespace: string;
  count: number;
  last_at: number;
}

/**
 * A precedent (case-based retrieval): a past query whose result an agent used, with the notes it used.
 * Written by feedback (shared/learning/precedents.ts), matched by the precedent scout.
 */
export interface PrecedentRow {
  /** The receipt the feedback was for. */
  precedent_id: string;
  /** ms since epoch (when the feedback was applied). */
  at: number;
  query_class: string;
  query_text: string;
  /** The agent whose receipt it was (null: the person): only it is shown the query text. */
  agent_id: string | null;
  /** The query's distinct content terms (the lexical tokenizer's). */
  terms: string[];
  /** Node ids feedback counted as used, in the receipt's order. */
  used: string[];
}

/** How long a deleted note's id, edges and stats are kept so that a returning note gets them back. */
export const TOMBSTONE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Stats of a node nothing has been learned about yet. salience 0.5 is the neutral midpoint;
 * spaced_rep_strength is SPACED_REPETITION.first_interval_days, the interval a first use keeps.
 */
export const DEFAULT_NODE_STATS: Omit<NodeStats, 'node_id'> = {
  salience: 0.5,
  retrieval_count: 0,
  last_retrieved_at: null,
  last_used_at: null,
  use_count: 0,
  ignored_count: 0,
  misleading_count: 0,
  spaced_rep_strength: SPACED_REPETITION.first_interval_days,
  per_queryclass_priors: {},
};

/**
 * Term–tag affinity (learning/tag-affinity.ts): of the notes tagged `tag` that feedback saw shown for
 * queries holding `term`, how many were used. `tag` '' holds the term's totals over every shown note, and
 * term '' with tag '' the totals over all feedback.
 */
export interface TagAffinityRow {
  term: string;
  tag: string;
  shown: number;
  used: number;
  /** When the row was last counted (ms since epoch). */
  at: number;
}

/**
 * Query-log document expansion (learning/query-expansion.ts): how strongly `term`, a word of the questions
 * `node_id` was used for, belongs to that note's expansion field, as of `at` (the weight halves every
 * QUERY_EXPANSION.half_life_days after it). `scope` is '' for words every reader may learn from, else the
 * one agent whose questions they were.
 */
export interface ExpansionRow {
  scope: string;
  node_id: string;
  term: string;
  weight: number;
  at: number;
}

/** A merged target's normalised name and the target it now means (shared/ledger/target-registry.ts). */
export interface TargetAliasRow {
  alias: string;
  target: string;
  /** When it was merged (ms since epoch). */
  at: number;
  /** Who merged it: 'human' or an agent id. */
  actor: string;
}

/**
 * A ledger entry's standing (learning/ledger-phases.ts): its phase and vitality as last evaluated, each
 * with the time it began, and the time of its first use (how long it has lived in use).
 */
export interface LedgerPhaseRow {
  node_id: string;
  phase: Phase;
  phase_since: number;
  vitality: Vitality;
  vitality_since: number;
  /** ms of the first use seen by an evaluation; null while never used. */
  first_used_at: number | null;
  evaluated_at: number;
}

/** An episodic event (model/events.ts) as stored: `links` are node ids (table event_links). */
export interface EventRow {
  event_id: string;
  kind: EventKind;
  /** ms since epoch. */
  at: number;
  /** The agent id, `human`, or the engine part that recorded it (`git`, `sync`). */
  actor: string;
  actor_kind: EventActorKind;
  /** Judged by the scope gate as a note's (governance/gate.ts), with `actor` as its author when an agent. */
  access_scope: string;
  namespace: string;
  summary: string;
  /** Small JSON (bounded by EVENT_LIMITS.data_chars); null when none. */
  data: unknown;
  links: string[];
  status: EventStatus;
  /** When it took its status (recorded, or archived). */
  status_at: number;
}

/**
 * Who created a note and who last made a substantive change (title or body) to it: the person (any caller
 * that is not an agent, edits on disk included) or an agent. `fingerprint` is of the title and body as that
 * change left them, so a later change on disk is told from one the engine made (vault/note-editors.ts).
 */
export interface NoteEditorRow {
  node_id: string;
  creator_kind: 'person' | 'agent';
  editor_kind: 'person' | 'agent';
  /** The agent id; null for the person. */
  editor: string | null;
  fingerprint: string;
  /** When the change was seen (ms since epoch). */
  at: number;
}

/**
 * Learned term associations (learning/term-assoc.ts): for feedback on queries holding `term`, how many
 * notes were shown and used, and per word of those notes' text how many of them held it ([shown, used]).
 * `scope` as in ExpansionRow ('' shared, else the one agent whose receipts taught it).
 */
export interface TermAssocRow {
  scope: string;
  term: string;
  shown: number;
  used: number;
  words: Record<string, [number, number]>;
  /** When the row was last counted (ms since epoch). */
  at: number;
}

/**
 * A journaled mutation. Each op carries the row's final state (not a delta), so replaying it twice,
 * or onto a snapshot that already holds it, gives the same result.
 */
export type MemoryOp =
  | { kind: 'node'; row: NodeRow }
  | { kind: 'purge'; node_ids: string[] }
  | { kind: 'edge'; row: EdgeRow }
  | { kind: 'edge_del'; edge_id: string }
  | { kind: 'stats'; row: NodeStats }
  | { kind: 'coact'; a: string; b: string; namespace: string; count: number; last_at: number }
  /** Drops co-activation pairs last seen before `before` with a count under `below` (decay's ageing). */
  | { kind: 'coact_prune'; before: number; below: number }
  /** A learning-layer bookmark (feedback applied for a receipt, time of the last decay run…), final value. */
  | { kind: 'mark'; key: string; value: unknown }
  /** Removes learning marks by key (old per-receipt feedback marks). */
  | { kind: 'mark_del'; keys: string[] }
  | { kind: 'precedent'; row: PrecedentRow }
  | { kind: 'precedent_del'; ids: string[] }
  /** Term–tag affinity rows, final counts. */
  | { kind: 'affinity'; rows: TagAffinityRow[] }
  /** Drops affinity rows last counted before `before` with fewer than `below` showings (decay's ageing). */
  | { kind: 'affinity_prune'; before: number; below: number }
  /** Query-expansion rows, final weights; a row with weight 0 is deleted. */
  | { kind: 'expansion'; rows: ExpansionRow[] }
  /** Words of the questions a note was ignored for (rows shaped as expansion rows), final weights; weight 0 deletes. */
  | { kind: 'ignored_terms'; rows: ExpansionRow[] }
  /** A ledger entry's phase and vitality, final state. */
  | { kind: 'phase'; row: LedgerPhaseRow }
  /** Episodic events, final state (with their links). */
  | { kind: 'events'; rows: EventRow[] }
  /** Events moved to `status` at `at` (the ageing pass archives). */
  | { kind: 'event_status'; ids: string[]; status: EventStatus; at: number }
  /** Events deleted with their links (the ageing pass prunes). */
  | { kind: 'event_del'; ids: string[] }
  /** A ledger target alias (stores/memory-targets.ts), final state; `target: null` removes it. */
  | { kind: 'target_alias'; row: TargetAliasRow | { alias: string; target: null } }
  /** Who last changed a note's title or body, final state (stores/memory-editors.ts). */
  | { kind: 'editor'; row: NoteEditorRow }
  /** Term-association rows, final counts; `drop` names (scope, term) rows to delete (the weakest, beyond the bound). */
  | { kind: 'assoc'; rows: TermAssocRow[]; drop: { scope: string; term: string }[] }
  /** Drops term-association rows last counted before `before` with fewer than `below` showings (decay's ageing). */
  | { kind: 'assoc_prune'; before: number; below: number }
  /** One co-activation pair deleted (a merge from another device: shared/replica). */
  | { kind: 'coact_del'; a: string; b: string; namespace: string }
  /** One term–tag affinity row deleted (a merge from another device). */
  | { kind: 'affinity_del'; term: string; tag: string }
  /** The replica's shares and devices (stores/replica-rows.ts). */
  | ReplicaOp;
