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
import type { TermAdd } from '../stores/decayed-terms';
import { tokenize } from '../index/tokenizer';
import { termFieldAdds } from './query-expansion';

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

/**
 * Adds the receipt's query words to each ignored note's field, a word the note holds itself at
 * IGNORED_TERMS.matched_weight (`noteText` null: not indexed, every word in full); false when nothing was recorded.
 */
export async function recordIgnoredTerms(
  learned: MemoryLearned,
  receipt: Pick<Receipt, 'agent_id' | 'query_text'>,
  ignored: readonly string[],
  at: number,
  everyAgentReads: boolean,
  noteText: (id: string) => string | null,
): Promise<boolean> {
  const adds = weighByNote(termFieldAdds(receipt, ignored, everyAgentReads, IGNORED_TERMS.max_query_terms), noteText, IGNORED_TERMS.matched_weight);
  if (adds.length === 0) return false;
  await learned.ignored.add(adds, at, IGNORED_TERMS.half_life_days, IGNORED_TERMS.max_terms);
  return true;
}
