/** Stage 6 of retrieve(): the receipt of a retrieval (.lithos/receipts.jsonl), built from its result. */
import type { Candidate } from '../merge';
import type { Receipt, ResolvedQuery, RetrievalResult } from '../types';

/** Receipts list at most this many candidate ids. */
const RECEIPT_CANDIDATES = 200;

export function receiptOf(receiptId: string, now: number, q: ResolvedQuery, result: RetrievalResult, candidates: ReadonlyMap<string, Candidate>): Receipt {
  return {
    receipt_id: receiptId,
    ts: new Date(now).toISOString(),
    agent_id: q.agent_id,
    task_id: q.task_id,
    query_text: q.text,
    query_class: q.query_class,
    intent: q.intent,
    namespace_filter: q.namespaces,
    temperature: result.temperature,
    coherence: result.coherence,
    hot_path: result.hot_path,
    terrace_reached: result.terrace_reached,
    terrace2: result.terrace2,
    candidates: [...candidates.keys()].slice(0, RECEIPT_CANDIDATES),
    final_nodes: result.nodes.map((n) => ({ id: n.id, path: n.path, title: n.title, score: n.score, scouts: n.scouts, terms: n.terms, ...(n.exploration ? { exploration: true as const } : {}) })),
    conflicts: result.conflicts,
    scouts: result.scouts,
  };
}
