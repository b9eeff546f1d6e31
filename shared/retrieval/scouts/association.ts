import { defineScout } from './define';
import { associatedWords, TERM_ASSOC } from '../term-assoc';

/**
 * Learned term associations (retrieval/term-assoc.ts): the query expanded with the words that stood out in
 * the notes used for earlier questions sharing its terms, searched lexically (with the query's own text,
 * TERM_ASSOC.with_query). Silent before any feedback.
 * Only the shared rows and the caller's own are read, so the words named in the reason are words of notes
 * every reader may see, or of notes this caller was shown.
 */
export const associationScout = defineScout({
  name: 'association',
  wave: 1,
  // Off by default (a scout of weight 0 does not run, and feedback then records nothing for it): cross-validated on
  // the dev data, held-out figures with it among the choices are lower than without (the vmm-general fold, tuned on
  // LoCoMo and scifact-dev, switches it off). Turned on at 0.15 (the objective's pick on all dev data) it gives, in
  // sample, vmm-general +2.3% → +7.4% with LoCoMo and scifact-dev about level (docs/learning.md). A vault or eval grid sets it.
  weight: 0,
  async run({ query, corpus, visible, limit }) {
    if (!corpus.termAssoc || query.terms.length === 0) return [];
    const words = associatedWords(corpus.termAssoc(query.terms.slice(0, TERM_ASSOC.max_query_terms), query.agent_id), query.terms);
    if (words.length === 0) return [];
    const byTerm = new Map<string, string[]>();
    for (const w of words) byTerm.set(w.term, [...(byTerm.get(w.term) ?? []), w.word]);
    const reason = `learned from earlier questions: ${[...byTerm].map(([t, ws]) => `"${t}" → ${ws.join(', ')}`).join('; ')}`;
    return (await corpus.lexical(`${TERM_ASSOC.with_query ? `${query.text} ` : ''}${words.map((w) => w.word).join(' ')}`, limit, visible)).map((h) => ({ id: h.id, score: h.score, reasons: [`${reason} (BM25 ${h.score.toFixed(2)})`] }));
  },
});
