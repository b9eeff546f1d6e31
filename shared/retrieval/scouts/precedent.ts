import type { Scout, ScoutHit } from '../types';

/**
 * Case-based retrieval: notes that were used for a similar past query (precedents recorded by feedback).
 * A note's score is its best precedent's similarity, so a weak resemblance proposes weakly. Silent while
 * there are no precedents; a note the viewer may not see never surfaces through one.
 */
export const precedentScout: Scout = {
  name: 'precedent',
  wave: 1,
  run({ query, corpus, visible, limit }) {
    const matches = corpus.precedents?.(query.terms, query.query_class) ?? [];
    const best = new Map<string, ScoutHit>();
    for (const m of matches) {
      for (const id of m.used) {
        if (best.has(id) || !corpus.note(id) || !visible(id)) continue; // matches come most similar first
        best.set(id, { id, score: m.similarity, reasons: [`used for a similar past query: "${m.query_text}" (similarity ${m.similarity.toFixed(2)})`] });
      }
    }
    const hits = [...best.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, limit);
  },
};
