import type { ScoutHit } from '../scout-contract';
import { defineScout } from './define';

/**
 * Title, alias or id hits: the query is the note's name (after case/space/punctuation normalisation), or
 * the note's id. These are always surfaced: hybrid ranking must never drop an exact match.
 */
export const exactScout = defineScout({
  name: 'exact',
  wave: 1,
  weight: 0.35,
  run({ query, corpus, visible }) {
    const hits: ScoutHit[] = [];
    const seen = new Set<string>();
    const byId = corpus.note(query.text);
    if (byId && visible(byId.id)) {
      hits.push({ id: byId.id, score: 1, reasons: ['the query is this note\'s id'] });
      seen.add(byId.id);
    }
    for (const id of corpus.exact(query.text)) {
      if (seen.has(id) || !visible(id)) continue;
      seen.add(id);
      hits.push({ id, score: 1, reasons: [`the query is this note's title or alias`] });
    }
    return hits;
  },
});
