/**
 * Every tunable of Parallel Terraced Scan, the one place for their values: docs/retrieval.md names them and
 * says where each applies. Tuned on the dev data under ../shared/data with `lithos eval --mode pts`, never
 * per test or per dataset.
 */
import type { Intent } from './scout-contract';

/** Each scout's weight in the base score is declared in its own file (scouts/*.ts, registry scouts/index.ts). */

/** Most hits each scout returns. Wave-1 scouts cast a wide net; the re-rank is cheap. */
export const SCOUT_LIMIT = 100;
/** Wave-1 candidates (by base score) that seed graph, coactivation, analogy, novelty and contradictions. */
export const SEED_COUNT = 10;

/**
 * Terrace 1: the design's re-rank formula, coefficients of each term. As the design specifies, except
 * ignored_penalty (below) and tag_affinity, which the design lacks.
 */
export const RERANK = {
  type_prior: 0.25,
  scope_affinity: 0.15,
  graph_affinity: 0.15,
  spaced_repetition: 0.1,
  /**
   * Design: 0.2. 3.6, with IGNORED_TERMS.unrelated 0.05 and tag_affinity 0.2: the point the cross-validation
   * objective picks on all dev datasets over scripts/feedback-cv-grid*.json (history and figures:
   * docs/evaluation.md#does-feedback-help).
   */
  ignored_penalty: 3.6,
  misleading_penalty: 0.3,
  /**
   * Learned term–tag affinity, a mean log-lift in [−1, 1] (learning/tag-affinity.ts). 0.2: cross-validated
   * with ignored_penalty (above).
   */
  tag_affinity: 0.2,
  /** The concept repeated-retrieval penalty is already an amount of score: subtracted as it is. */
  concept_damping: 1,
} as const;

/**
 * Term–tag affinity: learning/tag-affinity.ts counts it from feedback, tag-affinity.ts here reads it for the
 * re-rank, decay prunes it. The pseudo-count was set on `lithos eval --feedback-split 0.5` (LoCoMo's gain
 * +3.6% to +3.8% for pseudo-counts 2–10); the re-rank weight (RERANK.tag_affinity) by its `--cv` since
 * (docs/evaluation.md, "Does feedback help?").
 */
export const TAG_AFFINITY = {
  /** Query terms and note tags counted per feedback (a long query or a tag-heavy note stays bounded). */
  max_terms: 16,
  max_tags: 16,
  /** Smoothing toward the level above (all feedback → the term → the term with the tag). */
  pseudo_count: 5,
  /** A term takes part once notes were shown this many times for queries holding it. */
  min_term_shown: 5,
  /** The mean log-lift is clamped to ±cap. */
  cap: 1,
  /** |mean log-lift| from which the result names the pair that explains it (× RERANK.tag_affinity: score moved). */
  reason_min: 0.05,
  /** Decay forgets pairs shown fewer than prune_below times and not counted for max_age_days. */
  prune_below: 3,
  max_age_days: 180,
} as const;

/** A concept note's salience ceiling: concepts must not swamp the specific notes they gather. */
export const CONCEPT_SALIENCE_CEILING = 0.85;
/** Repeated-use penalty of a concept note: min(MAX, PER_USE × the uses feedback found in the window). */
export const CONCEPT_REPEAT_PENALTY_PER_USE = 0.05;
/** The cap, so a much-used concept sinks below its members but still shows up. */
export const CONCEPT_REPEAT_PENALTY_MAX = 0.4;
/** Uses counted for the penalty: those of the last day, so a concept recovers when left alone. */
export const CONCEPT_REPEAT_WINDOW_MS = 24 * 3600 * 1000;
/** misleading_penalty saturates at this many misleading marks (the learning layer quarantines at 3). */
export const MISLEADING_SATURATION = 3;
/** Pseudo-count that keeps one ignore of a rarely retrieved note from looking chronic. */
export const IGNORED_PRIOR_COUNT = 3;
/**
 * The ignored share is weighed by the evidence behind it, retrievals / (retrievals + this): a note shown
 * and passed over again and again is pushed down, one seen a few times barely.
 */
export const IGNORED_CONFIDENCE_COUNT = 2;
/**
 * Ignores that cost nothing: a note passed over once or twice — often for questions about something else,
 * or beside a better note on the same thing — is no evidence against it. On `--feedback-split 0.5` this
 * took every LoCoMo conversation to a gain ≥ 0 (conv-26 −0.7% → +1.9%, conv-43 −1.4% → 0.0%) and
 * scifact-dev from −0.8% to −0.1%, with RERANK.ignored_penalty raised 0.3 → 0.5 for the ignores that count
 * (since back at 0.3, beside the term–tag affinity).
 */
export const IGNORED_FREE = 2;

/**
 * type_prior(note_type, query_class) lives in the note-type table (model/note-types.ts), the one place
 * that describes note types; re-exported here for the re-rank. The learning layer's per-node, per-class
 * adjustment (node_stats.per_queryclass_priors) is added on top, clamped.
 */
export { TYPE_PRIORS } from '../model/note-types';

/** scope_affinity by how the note sits relative to the query's namespaces, agent and task. */
export const SCOPE_AFFINITY = {
  /** In a namespace the query asked for, the agent's own namespace, or the task's. */
  own: 1,
  shared: 0.5,
  other: 0.25,
} as const;

/**
 * Hybrid-memory intent profiles (from the hybrid-memory design): weights of relevance / recency / utility and
 * the jitter amplitude; every signal is normalised to [0,1] before mixing.
 */
export const INTENT_PROFILES: Record<Intent, { relevance: number; recency: number; utility: number; jitter: number }> = {
  continuity: { relevance: 0.3, recency: 0.5, utility: 0.2, jitter: 0.02 },
  fact_check: { relevance: 0.6, recency: 0.1, utility: 0.3, jitter: 0.02 },
  frequent: { relevance: 0.2, recency: 0.2, utility: 0.6, jitter: 0.02 },
  associative: { relevance: 0.7, recency: 0.1, utility: 0.2, jitter: 0.05 },
  explore: { relevance: 0.4, recency: 0.3, utility: 0.3, jitter: 0.15 },
};
/** recency = RECENCY_BASE ^ hours since last access. */
export const RECENCY_BASE = 0.995;
/** utility = sigmoid((usefulness + ln(access_count + 1)) / UTILITY_SCALE); usefulness from salience. */
export const UTILITY_SCALE = 5;
/** usefulness = (salience − 0.5) × this: a neutral salience adds nothing; the extremes move utility as much as ~150 accesses do. */
export const USEFULNESS_PER_SALIENCE = 10;

/** The recency scout's half-life (days) and how many of the most recent notes it proposes (a tie-breaker). */
export const RECENCY_HALF_LIFE_DAYS = 30;
export const RECENCY_LIMIT = 20;

/** Graph scout: weight of a wiki-link (typed edges carry their own weight) and the per-hop decay. */
export const WIKILINK_WEIGHT = 0.6;
export const HOP_DECAY = 0.5;

/**
 * A space's background cosine (background.ts): random note pairs sampled (a vault with fewer pairs uses
 * all), re-sampled once this share of the notes changed (the sample's own error is about 2% of a sd).
 */
export const BACKGROUND = { pairs: 2000, refresh_share: 0.02 };

/**
 * Temperature: coherence = weighted mean of these signals among the top `top` candidates, each measured
 * against the vault's background (temperature.ts), through a logistic. Fitted by a non-negative logistic
 * regression separating the dev queries (scifact-dev, LoCoMo, vmm-general: all name their subject) from
 * generic ("what happened", "any updates") and made-up ("blarf quux") queries asked of the same vaults,
 * checked leaving each dataset group out in turn. Vector stand-out, score concentration, links and shared
 * tags among the top got no weight there: they did not tell the two kinds apart.
 */
export const COHERENCE = {
  top: 12,
  weights: { narrowing: 0.62, lexical: 0.12, embedding: 0.17, agreement: 0.1 },
  /** Query words that narrow the vault this much (twice "down to one note") are full evidence. */
  narrowing_full: 2,
  /** A best BM25 hit this many sd above the query's scores over the vault, beyond noise, stands out fully. */
  standout_sd: 10,
  /** Top notes whose mean pairwise cosine is this many background sd above random pairs are fully coherent. */
  embedding_sd: 2,
  /** coherence = σ((weighted mean − center) / width). */
  center: 0.44,
  width: 0.17,
};

/** Above this temperature the scan widens (the design's threshold; terrace 2 uses it too). */
export const HOT = 0.6;

/** When the first scan runs hot, terrace 0 runs again this much wider: each scout's limit and wave 2's seeds. */
export const WIDE_SCAN = { limit_factor: 2, seed_factor: 2 };

export const SELECTION = {
  /**
   * MMR trade-off: λ·score − (1−λ)·redundancy, λ moving linearly from mmr_lambda_cold at temperature 0 to
   * mmr_lambda_hot at 1. Redundancy is a candidate's highest cosine to what is already chosen, above the
   * space's background (select.ts): near-duplicates pay, merely related notes do not. Chosen by
   * cross-validation over the dev folds (scifact-dev | conv-26,30 | conv-41,42,43 | vmm-general), the
   * setting whose worst training fold gains most: held out, −0.0008 / +0.0034 / +0.0010 / +0.0001 nDCG@10
   * against the figures before calibration (plain pts).
   */
  mmr_lambda_cold: 0.85,
  mmr_lambda_hot: 0.7,
  /**
   * Similarity counts as redundancy from this many background sd above random note pairs (select.ts):
   * near-duplicates only. Chosen with λ by the same cross-validation among 1 and 3 (1 cost scifact-dev 0.0008).
   */
  redundant_sd: 3,
  /** Candidates MMR considers, as a multiple of k (twice as many when hot: the wider scan's tail). */
  mmr_pool_factor: 4,
  /**
   * Final slots given to exploration candidates when hot (mixed mode) or under the explore intent. One when
   * hot, so that a hot scan explores: the calibrated temperature keeps dev questions cold (0–10% hot,
   * vmm-general 26%); that slot cost LoCoMo about 0.0009 nDCG@10 on the dev folds, the others nothing.
   */
  exploration_slots_hot: 1,
  exploration_slots_explore: 2,
  /** Mixed mode: when hot, exploration candidates get this much added to their normalised MMR score. */
  exploration_bonus_hot: 0.05,
};

/** Terrace 2 (the design's rule): query classes that want an interpretive pass above TERRACE2_CLASS_TEMPERATURE. */
export const TERRACE2_CLASSES: readonly string[] = ['design', 'synthesis', 'decision'];
export const TERRACE2_CLASS_TEMPERATURE = 0.25;
/** The interpreter keeps this many nodes; one follow-up round when its confidence is below the floor. */
export const INTERPRETER_MIN_NODES = 8;
export const INTERPRETER_MAX_NODES = 15;
export const FOLLOW_UP_CONFIDENCE = 0.5;
/** Follow-up queries run from that one round, at most: each is a whole retrieval inside the call's deadline. */
export const MAX_FOLLOW_UPS = 2;

/** Notes a retrieval returns unless asked otherwise, and the most it returns (an agent's context is finite). */
export const DEFAULT_K = 10;
export const MAX_K = 50;
/** Longer queries are cut here (a pasted document is not a better query, and BM25 cost grows with terms). */
export const MAX_QUERY_CHARS = 2000;

/** Centroid scout: how many of the best seeds make the centroid (pseudo-relevance feedback). */
export const CENTROID_SEEDS = 3;

/**
 * Precedent scout: a stored precedent counts when its IDF-weighted Jaccard with the query's terms is at
 * least min_similarity (after other_class_factor for a precedent of another query class); at most
 * max_matches precedents are read per query. A threshold of 0.3 let in questions about the same person but
 * another event (dev folds: −1.6% against −0.4% at 0.5).
 */
export const PRECEDENT_MATCH = {
  min_similarity: 0.5,
  other_class_factor: 0.5,
  max_matches: 20,
} as const;
