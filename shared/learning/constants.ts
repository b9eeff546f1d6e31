/**
 * Every learning constant in one table, the one place for their values (docs/learning.md names them). Tuned once on the dev data with
 * `lithos eval --mode pts --feedback-split 0.5`, never per dataset.
 */

export const FEEDBACK = {
  /** Used (cited, supported by the output, or accepted): salience, edges among used notes (spaced repetition: model/spaced-repetition.ts). */
  used_salience: 0.02,
  used_edge: 0.03,
  /** Per-class prior of a used note (the class the receipt was retrieved for). */
  used_class_prior: 0.03,
  /** Ignored (shown, not used): the class prior always; salience only once the note is chronically ignored. */
  ignored_class_prior: -0.03,
  ignored_salience: -0.02,
  /** Chronic: ignored more than this many times and more often than used. */
  chronic_ignored_min: 5,
  /** Misleading (explicit): class prior, salience, and the incoming edges from the other final nodes. */
  misleading_class_prior: -0.08,
  misleading_salience: -0.05,
  misleading_edge: -0.05,
  /** Misleading marks at which a note is quarantined (status: quarantined, hidden from default retrieval). */
  quarantine_at: 3,
  /** accepted: true adds this to the salience of each used note (the person confirmed the output). */
  accepted_salience: 0.01,
  /** A per-class adjustment never leaves [−cap, +cap] (the type prior itself is clamped to [0,1]). */
  class_prior_cap: 0.5,
} as const;

/**
 * When the output text counts as drawing on a note (used without a citation). Lexical: the share of the
 * note's distinct content terms (title and body, stopwords out, first LEXICAL_TERMS of them) that occur in
 * the output. Embedding: cosine between the output's vector and the note's mean vector in the primary
 * space (the offline embedder puts unrelated texts near 0.05, paraphrases above 0.5).
 */
export const SUPPORT = {
  lexical_share: 0.5,
  lexical_terms: 40,
  /** Notes with fewer distinct terms than this are judged by embedding only (a short title matches too easily). */
  lexical_min_terms: 4,
  embedding_cosine: 0.6,
} as const;

/** Precedents (case-based retrieval): what used feedback remembers for the precedent scout. */
export const PRECEDENTS = {
  /** The newest this many are kept; older ones are pruned as new ones arrive. */
  keep: 5000,
  /** The query text kept for the scout's reason (matching uses the terms). */
  max_query_chars: 200,
} as const;

export const DECAY = {
  /** How often the engine runs decay while open (it also runs once at open). */
  interval_ms: 6 * 3600 * 1000,
  /** rule/agent edge weights halve over this many days without reinforcement; human edges never decay. */
  edge_half_life_days: 90,
  /** A decayed rule/agent edge below this weight is deleted. */
  edge_prune_below: 0.01,
} as const;

/** Episodic events (model/events.ts): how long they live (learning/event-ageing.ts) and how tool calls are written. */
export const EVENTS = {
  /** An active event older than this is archived (unless linked to a note or of an immortal kind). */
  ttl_days: 30,
  /** An archived event is pruned this many days after it was archived. */
  archive_days: 60,
  /** Tool-call events wait in memory at most this long before one batched write (a crash loses at most these). */
  flush_ms: 1_000,
  /** … or until this many wait. */
  flush_at: 100,
} as const;

/**
 * Drift triage (learning/drift.ts, Engram's thresholds): after how many days a ledger entry's state is an
 * alert. Dormancy itself is the vitality's (model/phases.ts VITALITY_DAYS), not repeated here.
 */
export const DRIFT = {
  /** A ledger entry with no links in or out and no use (nor write) for this long is orphaned. */
  orphan_days: 30,
  /** A claim contested (unresolved) for longer than this. */
  contested_days: 14,
  /** A claim unverified for longer than this. */
  unverified_days: 30,
  /** A conflict unreviewed for longer than this. */
  conflict_days: 14,
} as const;

export const DAY_MS = 24 * 3600 * 1000;

/**
 * A co-activation pair seen fewer times than a concept needs (CONCEPT_MIN_COACTIVATION) and not for this
 * many days is forgotten by decay: every feedback counts all pairs of the notes it returned, so without
 * this the table only grows (about 11–17 new pairs a retrieval).
 */
export const COACTIVATION_MAX_AGE_DAYS = 180;

/**
 * A receipt's feedback mark (what was used, so feedback counts once) is forgotten by decay after this
 * many days: one row per feedback otherwise accumulates forever, long after its receipt left the log.
 */
export const FEEDBACK_MARK_MAX_AGE_DAYS = 365;
