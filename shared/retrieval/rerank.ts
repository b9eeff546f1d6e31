/** Terrace 1: the design's re-rank formula over merged candidates, plus the intent profile. */
import {
  CONCEPT_REPEAT_PENALTY_MAX,
  CONCEPT_REPEAT_PENALTY_PER_USE,
  CONCEPT_SALIENCE_CEILING,
  IGNORED_CONFIDENCE_COUNT,
  IGNORED_FREE,
  IGNORED_PRIOR_COUNT,
  INTENT_PROFILES,
  MISLEADING_SATURATION,
  RECENCY_BASE,
  RERANK,
  SCOPE_AFFINITY,
  TYPE_PRIORS,
  USEFULNESS_PER_SALIENCE,
  UTILITY_SCALE,
} from './constants';
import type { Candidate } from './merge';
import type { CorpusNote, Intent, ResolvedQuery, RetrievalCorpus, ScoreTerms } from './types';
import type { NodeStats } from '../stores/memory-types';
import { recallStrength } from '../model/spaced-repetition';
import { rankStanding, scaled } from './ledger-rank';
import { IGNORED_TERMS } from './ignored-terms';

const clamp01 = (x: number): number => (x > 1 ? 1 : x > 0 ? x : 0);
const HOUR = 3600 * 1000;

export interface IntentWeights {
  relevance: number;
  recency: number;
  utility: number;
}

/** The intent's weights, jittered by ±its amplitude when `random` is given, renormalised to sum 1. */
export function intentWeights(intent: Intent | null, random: (() => number) | null): IntentWeights | null {
  if (!intent) return null;
  const p = INTENT_PROFILES[intent];
  const j = (w: number): number => (random ? w * (1 + p.jitter * (2 * random() - 1)) : w);
  const w = { relevance: j(p.relevance), recency: j(p.recency), utility: j(p.utility) };
  const sum = w.relevance + w.recency + w.utility;
  return { relevance: w.relevance / sum, recency: w.recency / sum, utility: w.utility / sum };
}

export function typePrior(note: CorpusNote, queryClass: string, stats: NodeStats): number {
  const table = TYPE_PRIORS[queryClass] ?? TYPE_PRIORS.default;
  return clamp01(table[note.note_type] + (stats.per_queryclass_priors[queryClass] ?? 0));
}

function under(ns: string, prefix: string): boolean {
  return ns === prefix || ns.startsWith(prefix + '/');
}

export function scopeAffinity(note: CorpusNote, q: ResolvedQuery): number {
  if (q.namespaces.some((p) => under(note.namespace, p))) return SCOPE_AFFINITY.own;
  if (q.agent_id && under(note.namespace, `agent/${q.agent_id}`)) return SCOPE_AFFINITY.own;
  if (q.task_id && under(note.namespace, `task/${q.task_id}`)) return SCOPE_AFFINITY.own;
  if (note.access_scope === 'shared' || note.access_scope === 'project') return SCOPE_AFFINITY.shared;
  return SCOPE_AFFINITY.other;
}

/**
 * Weighted share of the seeds a node is directly connected to (links either way, typed edges except
 * `contradicts`). Built once per scan from the seeds' side — a few neighbourhoods instead of one per
 * candidate — then looked up: the map holds, per neighbour, its best weight to each seed.
 */
export function seedNeighbourhood(corpus: RetrievalCorpus, seeds: readonly string[]): (id: string) => number {
  const toSeeds = new Map<string, Map<string, number>>();
  const bump = (node: string, seed: string, w: number): void => {
    if (node === seed) return;
    let m = toSeeds.get(node);
    if (!m) toSeeds.set(node, (m = new Map<string, number>()));
    m.set(seed, Math.max(m.get(seed) ?? 0, w));
  };
  for (const seed of seeds) {
    for (const o of corpus.linksOut(seed)) bump(o, seed, 0.6);
    for (const o of corpus.linksIn(seed)) bump(o, seed, 0.6);
    for (const e of corpus.edges(seed)) if (e.type !== 'contradicts') bump(e.from_id === seed ? e.to_id : e.from_id, seed, clamp01(e.weight));
  }
  const seedSet = new Set(seeds);
  return (id) => {
    const m = toSeeds.get(id);
    if (!m) return 0;
    const others = seedSet.has(id) ? seedSet.size - 1 : seedSet.size;
    if (others <= 0) return 0;
    let sum = 0;
    for (const w of m.values()) sum += w;
    return clamp01(sum / others);
  };
}

/**
 * How recently the note was used (feedback) or, never used or edited since, written: retrieving a note
 * is no evidence it matters, so being shown does not make it recent.
 */
export function recencySignal(note: CorpusNote, stats: NodeStats, now: number): number {
  const last = Math.max(stats.last_used_at ?? 0, note.updated_at);
  return Math.pow(RECENCY_BASE, Math.max(0, now - last) / HOUR);
}

/** From salience and the times feedback found the note used (not the times it was shown). */
export function utilitySignal(note: CorpusNote, stats: NodeStats): number {
  const salience = note.note_type === 'concept' ? Math.min(stats.salience, CONCEPT_SALIENCE_CEILING) : stats.salience;
  const usefulness = USEFULNESS_PER_SALIENCE * (salience - 0.5);
  return 1 / (1 + Math.exp(-(usefulness + Math.log(stats.use_count + 1)) / UTILITY_SCALE));
}

/** The repeated-use penalty of a concept note: min(0.4, 0.05 × the uses feedback found in the last 24 h). */
export function conceptDamping(usesIn24h: number): number {
  return Math.min(CONCEPT_REPEAT_PENALTY_MAX, CONCEPT_REPEAT_PENALTY_PER_USE * Math.max(0, usesIn24h));
}

/**
 * The times feedback judged the note (used, ignored or misleading): the evidence its ignored share is
 * measured against. Retrievals without feedback say nothing either way.
 */
export function timesJudged(stats: NodeStats): number {
  return stats.use_count + stats.ignored_count + stats.misleading_count;
}

/**
 * The share of the times feedback judged the note in which it was ignored (with a pseudo-count), weighed
 * by how much evidence there is: the first IGNORED_FREE ignores — often for unrelated questions — count
 * nothing; a note passed over in result after result is the one to push down.
 */
export function ignoredPenalty(stats: NodeStats): number {
  const r = timesJudged(stats);
  const share = clamp01(Math.max(0, stats.ignored_count - IGNORED_FREE) / (r + IGNORED_PRIOR_COUNT));
  return share * (r / (r + IGNORED_CONFIDENCE_COUNT));
}

/**
 * The query-conditional ignored penalty: a note's penalty × (IGNORED_TERMS.unrelated + the rest × how much of
 * this query the words of the questions it was ignored for cover). At `unrelated` 1, or on a corpus
 * that keeps no such words, the penalty counts in full, as before.
 */
export function queryIgnoredShare(corpus: RetrievalCorpus, q: Pick<ResolvedQuery, 'terms' | 'agent_id'>, now: number): (id: string, penalty: number) => number {
  const keep = IGNORED_TERMS.unrelated;
  const overlap = keep < 1 ? (corpus.ignoredOverlap?.(q.terms, q.agent_id, now) ?? null) : null;
  if (!overlap) return (_id, penalty) => penalty;
  return (id, penalty) => (penalty > 0 ? penalty * (keep + (1 - keep) * overlap(id)) : 0);
}

export interface Ranked {
  id: string;
  score: number;
  terms: ScoreTerms;
  candidate: Candidate;
  /** Why the re-rank moved it, beyond what its scouts said (the tag affinity's strongest pair). */
  why?: string;
  /** Taken into one of select's exploration slots, not on its score: feedback never counts it ignored. */
  exploration?: true;
}

/** Scores every candidate with the terrace-1 formula; best first, ties by id. */
export function rerank(
  candidates: readonly Candidate[],
  q: ResolvedQuery,
  corpus: RetrievalCorpus,
  seeds: readonly string[],
  weights: IntentWeights | null,
  now: number,
): Ranked[] {
  const maxBase = Math.max(0, ...candidates.map((c) => c.base));
  const affinity = seedNeighbourhood(corpus, seeds);
  const tagAffinity = corpus.tagAffinity?.(q.terms) ?? null;
  const ignoredFor = queryIgnoredShare(corpus, q, now);
  const phaseOf = corpus.ledgerPhase ? (id: string) => corpus.ledgerPhase!(id) : undefined;
  const out: Ranked[] = [];
  for (const c of candidates) {
    const note = corpus.note(c.id);
    if (!note) continue;
    const stats = corpus.stats(c.id);
    const relevance = maxBase > 0 ? c.base / maxBase : 0;
    const learned = tagAffinity ? tagAffinity(note.tags) : null;
    const intent = weights
      ? weights.relevance * relevance + weights.recency * recencySignal(note, stats, now) + weights.utility * utilitySignal(note, stats)
      : relevance;
    const terms: ScoreTerms = {
      base: relevance,
      type_prior: typePrior(note, q.query_class, stats),
      scope_affinity: scopeAffinity(note, q),
      graph_affinity: affinity(c.id),
      spaced_repetition: recallStrength(stats, now),
      ignored_penalty: ignoredFor(c.id, ignoredPenalty(stats)),
      misleading_penalty: clamp01(stats.misleading_count / MISLEADING_SATURATION),
      concept_damping: note.note_type === 'concept' ? conceptDamping(corpus.conceptUses?.(c.id, now) ?? 0) : 0,
      tag_affinity: learned?.value ?? 0,
      intent,
      scouts: { ...c.scouts },
    };
    const standing = rankStanding(note, stats, phaseOf, now);
    if (standing) terms.ledger = standing.factor;
    const additive =
      intent +
      RERANK.type_prior * terms.type_prior +
      RERANK.scope_affinity * terms.scope_affinity +
      RERANK.graph_affinity * terms.graph_affinity +
      RERANK.spaced_repetition * terms.spaced_repetition +
      RERANK.tag_affinity * terms.tag_affinity -
      RERANK.ignored_penalty * terms.ignored_penalty -
      RERANK.misleading_penalty * terms.misleading_penalty -
      RERANK.concept_damping * terms.concept_damping;
    // A ledger entry's phase and vitality scale its score (ledger-rank.ts); other notes keep it as it is.
    const score = standing ? scaled(additive, standing.factor) : additive;
    const ledgerWhy = standing && standing.factor !== 1 ? `ledger: ${standing.phase}, ${standing.vitality} (×${standing.factor.toFixed(2)})` : null;
    const why = ledgerWhy && learned?.reason ? `${learned.reason}; ${ledgerWhy}` : (ledgerWhy ?? learned?.reason);
    out.push({ id: c.id, score, terms, candidate: c, ...(why ? { why } : {}) });
  }
  out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return out;
}
