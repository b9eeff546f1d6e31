/**
 * Query-log document expansion, the learning side: when feedback marks notes of a receipt as used, the
 * words of its question join each used note's expansion field (memory.sqlite, table query_expansion), a
 * separate lexical field the expansion scout reads with BM25 (retrieval/query-expansion.ts, which also says
 * why: a question worded differently from the note but like earlier questions it answered).
 *
 * Scope: a question's words say what someone asked. They go to the shared field (scope '') only when every
 * agent could read the receipt — every note it returned readable by every agent, no private namespace
 * filter (feedback.ts everyAgentReadsReceipt, the rule term–tag affinity follows). Otherwise they are kept
 * for the asking agent alone (scope = its id), whose own later questions read them; a person's receipt
 * that not every agent could read teaches nothing here.
 */
import { tokenize } from '../index/tokenizer';
import type { Receipt } from '../retrieval/types';
import { QUERY_EXPANSION } from '../retrieval/query-expansion';
import type { MemoryLearned } from '../stores/memory-learned';
import type { TermAdd } from '../stores/decayed-terms';

/** Each add at `matched` when its note's own text holds the word, else in full; adds of weight 0 dropped. */
export function weighByNote(adds: readonly TermAdd[], noteText: (id: string) => string | null, matched: number): TermAdd[] {
  if (matched >= 1) return [...adds];
  const words = new Map<string, ReadonlySet<string> | null>();
  const holds = (id: string, term: string): boolean => {
    if (!words.has(id)) {
      const text = noteText(id);
      words.set(id, text === null ? null : new Set(tokenize(text)));
    }
    return words.get(id)?.has(term) ?? false;
  };
  return adds.flatMap((a) => {
    const weight = holds(a.node_id, a.term) ? matched : 1;
    return weight > 0 ? [{ ...a, weight }] : [];
  });
}

/** The scope a receipt's words are kept in, or null when they may be kept nowhere. */
export function expansionScope(receipt: Pick<Receipt, 'agent_id'>, everyAgentReads: boolean): string | null {
  if (everyAgentReads) return '';
  return receipt.agent_id ? receipt.agent_id : null;
}

/**
 * The (scope, note, term) rows a receipt's query words add to a term field of `notes` (query expansion, the
 * ignored-for field): at most `maxQueryTerms` distinct words; empty when they may be kept nowhere.
 */
export function termFieldAdds(
  receipt: Pick<Receipt, 'agent_id' | 'query_text'>,
  notes: readonly string[],
  everyAgentReads: boolean,
  maxQueryTerms: number,
): { scope: string; node_id: string; term: string }[] {
  const scope = expansionScope(receipt, everyAgentReads);
  const terms = [...new Set(tokenize(receipt.query_text))].slice(0, maxQueryTerms);
  if (scope === null) return [];
  return [...new Set(notes)].flatMap((node_id) => terms.map((term) => ({ scope, node_id, term })));
}

/**
 * Adds the receipt's query words to each used note's field, a word the note holds itself at
 * QUERY_EXPANSION.matched_weight (`noteText` null: not indexed, every word in full); false when nothing was recorded.
 */
export async function recordQueryExpansion(
  learned: MemoryLearned,
  receipt: Pick<Receipt, 'agent_id' | 'query_text'>,
  used: readonly string[],
  at: number,
  everyAgentReads: boolean,
  noteText: (id: string) => string | null,
): Promise<boolean> {
  const adds = weighByNote(termFieldAdds(receipt, used, everyAgentReads, QUERY_EXPANSION.max_query_terms), noteText, QUERY_EXPANSION.matched_weight);
  if (adds.length === 0) return false;
  await learned.addExpansion(adds, at, QUERY_EXPANSION.half_life_days, QUERY_EXPANSION.max_terms);
  return true;
}
