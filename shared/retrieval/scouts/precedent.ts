import type { ScoutHit } from '../scout-contract';
import { defineScout } from './define';

/**
 * Case-based retrieval: notes that were used for a similar past query (precedents recorded by feedback).
 * A note's score is its best precedent's similarity, so a weak resemblance proposes weakly. Silent while
 * there are no precedents. Like a receipt, a precedent carries someone's query: it is followed only when
 * the caller may see every note it used that still exists (a hidden one never surfaces, and the query
 * that found it is not hinted at), and its text is quoted only to the agent (or person) who asked it.
 */
export const precedentScout = defineScout({
  name: 'precedent',
  wave: 1,
  weight: 0.3, // as strong as vector: it only speaks for a close match (PRECEDENT_MATCH)
  run({ query, corpus, visible, limit }) {
    const matches = corpus.precedents?.(query.terms, query.query_class) ?? [];
    const best = new Map<string, ScoutHit>();
    for (const m of matches) {
      const live = m.used.filter((id) => corpus.note(id) !== undefined);
      if (!live.every((id) => visible(id))) continue;
      const sim = m.similarity.toFixed(2);
      const reason = m.agent_id === query.agent_id ? `used for a similar past query: "${m.query_text}" (similarity ${sim})` : `used for a similar past query of another agent (similarity ${sim})`;
      for (const id of live) {
        if (!best.has(id)) best.set(id, { id, score: m.similarity, reasons: [reason] }); // matches come most similar first
      }
    }
    const hits = [...best.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, limit);
  },
});
