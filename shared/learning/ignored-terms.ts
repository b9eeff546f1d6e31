/**
 * The query-conditional ignored penalty, the learning side: when feedback counts notes of a receipt as
 * ignored, the words of its question join each ignored note's ignored-for field (memory.sqlite, table
 * ignored_terms), which the re-rank reads to weigh the note's ignores by how much a later question is like
 * the ones it was ignored for (retrieval/ignored-terms.ts says why).
 *
 * Scope as query expansion's (learning/query-expansion.ts termFieldAdds): the shared field only when every
 * agent could read the receipt, else the asking agent's own; a person's receipt that not every agent could
 * read records nothing (its ignores then count at the `unrelated` share for every question).
 */
import type { Receipt } from '../retrieval/types';
import { IGNORED_TERMS } from '../retrieval/ignored-terms';
import type { MemoryLearned } from '../stores/memory-learned';
import { termFieldAdds } from './query-expansion';

/** Adds the receipt's query words to each ignored note's field; false when nothing was recorded. */
export async function recordIgnoredTerms(
  learned: MemoryLearned,
  receipt: Pick<Receipt, 'agent_id' | 'query_text'>,
  ignored: readonly string[],
  at: number,
  everyAgentReads: boolean,
): Promise<boolean> {
  const adds = termFieldAdds(receipt, ignored, everyAgentReads, IGNORED_TERMS.max_query_terms);
  if (adds.length === 0) return false;
  await learned.ignored.add(adds, at, IGNORED_TERMS.half_life_days, IGNORED_TERMS.max_terms);
  return true;
}
