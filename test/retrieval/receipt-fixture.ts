import type { Receipt, ScoreTerms } from '../../shared/retrieval/types';

export const HOUR = 3_600_000;
export const T0 = Date.UTC(2026, 0, 1);

export const TERMS: ScoreTerms = {
  base: 0.5,
  type_prior: 0,
  scope_affinity: 0,
  graph_affinity: 0,
  spaced_repetition: 0,
  ignored_penalty: 0,
  misleading_penalty: 0,
  concept_damping: 0,
  tag_affinity: 0,
  intent: 0,
  scouts: { lexical: 0.5 },
};

/** A receipt numbered n, written n hours after T0; override any field. */
export function receipt(n: number, over: Partial<Receipt> = {}): Receipt {
  return {
    receipt_id: `r${n}`,
    ts: new Date(T0 + n * HOUR).toISOString(),
    agent_id: 'agent-a',
    task_id: null,
    query_text: `query ${n}`,
    query_class: 'lookup',
    intent: null,
    namespace_filter: [],
    temperature: 0.3,
    coherence: 0.7,
    terrace_reached: 1,
    terrace2: { wanted: false, why: 'low temperature', outcome: 'not wanted' },
    candidates: ['n1', 'n2'],
    final_nodes: [{ id: 'n1', score: 0.9, scouts: ['lexical'], terms: TERMS }],
    conflicts: [],
    scouts: { lexical: { hits: 2, ms: 1 } },
    ...over,
  };
}
