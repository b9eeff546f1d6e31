import { QUERY_EXPANSION, type ExpansionHit } from '../query-expansion';
import type { ResolvedQuery, RetrievalCorpus } from '../scout-contract';
import { defineScout } from './define';

/**
 * Query-log document expansion (retrieval/query-expansion.ts): notes whose earlier questions — the ones they
 * were used for — share words with this one, by BM25 over that separate field. Silent before any feedback.
 * Only words every reader may learn from, and the caller's own earlier questions, are read; the reason
 * names the matched words, which are this caller's own words or words no reader is barred from.
 */
export const expansionScout = defineScout({
  name: 'expansion',
  wave: 1,
  // 1.2, above lexical: the cross-validation pick on all dev data once the field holds only words the note lacks
  // (QUERY_EXPANSION.matched_weight 0), so it adds what the note's text cannot match (docs/evaluation.md).
  weight: 1.2,
  run({ query, corpus, visible, limit, now }) {
    const out = [];
    for (const h of passedOverTakenBack(corpus.expansion?.(query.terms, query.agent_id, now) ?? [], corpus, query, now)) {
      if (out.length >= limit) break;
      if (!corpus.note(h.id) || !visible(h.id)) continue;
      out.push({ id: h.id, score: h.score, reasons: [`used before for questions with ${h.terms.slice(0, 3).map((t) => `"${t}"`).join(', ')} (${h.score.toFixed(2)})`] });
    }
    return out;
  },
});

/** The hits with each match × max(0, 1 − ignored_offset × how much of the query its ignored-for words cover), best first. */
function passedOverTakenBack(hits: ExpansionHit[], corpus: RetrievalCorpus, query: ResolvedQuery, now: number): ExpansionHit[] {
  const offset = QUERY_EXPANSION.ignored_offset;
  const ignored = offset > 0 && hits.length > 0 ? corpus.ignoredOverlap?.(query.terms, query.agent_id, now) : undefined;
  if (!ignored) return hits;
  return hits
    .map((h) => ({ ...h, score: h.score * Math.max(0, 1 - offset * ignored(h.id)) }))
    .filter((h) => h.score > 0)
    .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
}
