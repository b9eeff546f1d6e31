/**
 * Term–tag affinity: which of a note's tags go with which words of a question, learned from feedback.
 *
 * For every note a receipt returned, each (query term, note tag) pair counts one showing, and one use when
 * the note was used; each term also counts its showings and uses over all notes. Retrieval then reads, for
 * a candidate, how much more (or less) often notes carrying its tags were used for the query's terms than
 * notes were for those terms at all: a smoothed lift, as a log, averaged over the pairs.
 *
 * A note's own history (salience, ignores) moves it for every later question alike and says nothing about
 * notes never shown. This signal is about features, not notes: it carries to notes never returned and to
 * questions never asked, through the tags and words they share with earlier ones (questions naming a
 * person → the notes tagged with that person; "deploy" → #infra).
 *
 * This file counts; retrieval/tag-affinity.ts reads (it sits below learning/, which retrieval may not import).
 */
import { tokenize } from '../index/tokenizer';
import type { MemoryLearned } from '../stores/memory-learned';
import type { TagAffinityRow } from '../stores/memory-store';
import { TAG_AFFINITY } from '../retrieval/constants';
import { affinityTags } from '../retrieval/tag-affinity';

/** The query's terms as the affinity counts them: distinct tokens, the first TAG_AFFINITY.max_terms. */
export function affinityTerms(queryText: string): string[] {
  return [...new Set(tokenize(queryText))].slice(0, TAG_AFFINITY.max_terms);
}

/** The counts one feedback adds: per shown note, its tags × the query's terms, and each term's totals. */
export function affinityDeltas(terms: readonly string[], shown: readonly { tags: readonly string[]; used: boolean }[]): Omit<TagAffinityRow, 'at'>[] {
  if (terms.length === 0 || shown.length === 0) return [];
  const out: Omit<TagAffinityRow, 'at'>[] = [];
  const usedCount = shown.filter((s) => s.used).length;
  out.push({ term: '', tag: '', shown: shown.length, used: usedCount });
  for (const t of terms) {
    out.push({ term: t, tag: '', shown: shown.length, used: usedCount });
    for (const s of shown) for (const g of affinityTags(s.tags)) out.push({ term: t, tag: g, shown: 1, used: s.used ? 1 : 0 });
  }
  return out;
}

/** Records one feedback's showings and uses. */
export async function recordTagAffinity(
  learned: MemoryLearned,
  queryText: string,
  shown: readonly { tags: readonly string[]; used: boolean }[],
  at: number,
): Promise<boolean> {
  const deltas = affinityDeltas(affinityTerms(queryText), shown);
  if (deltas.length === 0) return false;
  await learned.addTagAffinity(deltas, at);
  return true;
}
