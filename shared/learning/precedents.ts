/**
 * Precedents for case-based retrieval: when feedback marks notes of a receipt as used, the query (its
 * content terms and class) and the used node ids are remembered in memory.sqlite, newest PRECEDENTS.keep
 * kept. The precedent scout (retrieval/scouts/precedent.ts) proposes those notes for similar queries.
 */
import type { MemoryLearned } from '../stores/memory-learned';
import type { PrecedentRow } from '../stores/memory-store';
import { tokenize } from '../index/tokenizer';
import type { Receipt } from '../retrieval/types';
import { PRECEDENTS } from './constants';

/** The precedent a receipt's feedback makes, or null when there is nothing to remember. */
export function precedentOf(receipt: Receipt, used: readonly string[], at: number): PrecedentRow | null {
  const terms = [...new Set(tokenize(receipt.query_text))];
  if (used.length === 0 || terms.length === 0) return null;
  return {
    precedent_id: receipt.receipt_id,
    at,
    query_class: receipt.query_class,
    query_text: receipt.query_text.slice(0, PRECEDENTS.max_query_chars),
    agent_id: receipt.agent_id,
    terms,
    used: [...new Set(used)],
  };
}

/** Stores the receipt's precedent (pruning the oldest beyond the bound); false when there was none to store. */
export async function recordPrecedent(learned: MemoryLearned, receipt: Receipt, used: readonly string[], at: number): Promise<boolean> {
  const row = precedentOf(receipt, used, at);
  if (!row) return false;
  await learned.addPrecedent(row, PRECEDENTS.keep);
  return true;
}
