/** Stage 5 of retrieve(): the result the caller gets, its figures rounded to 4 decimals. */
import type { Ranked } from '../rerank';
import { NO_SIGNALS, type Coherence, type CoherenceSignals } from '../temperature';
import type { HotPath, ResolvedQuery, RetrievalCorpus, RetrievalResult, RetrievedNode, ScoutName, SurfacedConflict, Terrace2Decision } from '../types';

/** What terrace 1, then terrace 2 when it ran, settled on (interpret.ts). */
export interface Outcome {
  final: Ranked[];
  conflicts: SurfacedConflict[];
  terrace: 0 | 1 | 2;
  terrace2: Terrace2Decision;
  /** Reasons the interpretive pass adds per node (follow-up finds, bridges). */
  extraReasons: Map<string, string[]>;
}

export function resultOf(q: ResolvedQuery, corpus: RetrievalCorpus, coh: Coherence, hotPath: HotPath, pass: Outcome, telemetry: RetrievalResult['scouts'], ms: number): RetrievalResult {
  const nodes: RetrievedNode[] = pass.final.map((r) => {
    const n = corpus.note(r.id)!;
    return {
      id: r.id,
      path: n.path,
      title: n.title,
      note_type: n.note_type,
      namespace: n.namespace,
      score: round(r.score),
      reasons: [...r.candidate.reasons, ...(r.why ? [r.why] : []), ...(pass.extraReasons.get(r.id) ?? [])],
      scouts: (Object.keys(r.terms.scouts) as ScoutName[]).sort(),
      terms: roundTerms(r.terms),
      ...(r.exploration ? { exploration: true as const } : {}),
    };
  });
  return {
    nodes,
    temperature: round(coh.temperature),
    coherence: round(coh.coherence),
    coherence_signals: roundSignals(coh.signals),
    hot_path: { ...hotPath, mmr_lambda: round(hotPath.mmr_lambda) },
    terrace_reached: pass.terrace,
    terrace2: pass.terrace2,
    conflicts: pass.conflicts,
    receipt_id: null,
    query_class: q.query_class,
    intent: q.intent,
    scouts: telemetry,
    ms: round(ms),
  };
}

/** The result of a retrieval that had nothing to scan (empty query or vault). */
export function emptyResult(q: ResolvedQuery, why: string, ms: number): RetrievalResult {
  return {
    nodes: [],
    temperature: 0,
    coherence: 1,
    coherence_signals: { ...NO_SIGNALS },
    hot_path: { wider_scan: false, scout_limit: 0, seeds: 0, mmr_lambda: 1, exploration_slots: 0 },
    terrace_reached: 0,
    terrace2: { wanted: false, why, outcome: 'not wanted' },
    conflicts: [],
    receipt_id: null,
    query_class: q.query_class,
    intent: q.intent,
    scouts: {},
    ms: round(ms),
  };
}

export function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

function roundSignals(s: CoherenceSignals): CoherenceSignals {
  const out = { ...s };
  for (const k of Object.keys(out) as (keyof CoherenceSignals)[]) out[k] = round(out[k]);
  return out;
}

function roundTerms(t: Ranked['terms']): Ranked['terms'] {
  const scouts: Ranked['terms']['scouts'] = {};
  for (const [k, v] of Object.entries(t.scouts)) scouts[k as ScoutName] = round(v);
  return {
    base: round(t.base),
    type_prior: round(t.type_prior),
    scope_affinity: round(t.scope_affinity),
    graph_affinity: round(t.graph_affinity),
    spaced_repetition: round(t.spaced_repetition),
    ignored_penalty: round(t.ignored_penalty),
    misleading_penalty: round(t.misleading_penalty),
    concept_damping: round(t.concept_damping),
    tag_affinity: round(t.tag_affinity),
    intent: round(t.intent),
    ...(t.ledger !== undefined ? { ledger: round(t.ledger) } : {}),
    scouts,
  };
}
