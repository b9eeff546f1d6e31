import { RECENCY_HALF_LIFE_DAYS, RECENCY_LIMIT } from '../constants';
import type { ScoutHit } from '../scout-contract';
import { defineScout } from './define';

const DAY = 24 * 3600 * 1000;

/**
 * The most recently updated visible notes, scored by an exponential half-life. Under the continuity
 * intent the intent profile's own recency term (last access) weighs in again at terrace 1.
 */
export const recencyScout = defineScout({
  name: 'recency',
  wave: 1,
  weight: 0.02,
  run({ corpus, visible, limit: asked, now }) {
    // A short list: on a small vault "the 100 most recent" would be every note, which says nothing.
    const limit = Math.min(asked, RECENCY_LIMIT);
    let all: readonly { id: string; updated_at: number }[];
    if (corpus.byRecency) all = corpus.byRecency();
    else all = [...corpus.notes()].sort((a, b) => b.updated_at - a.updated_at || (a.id < b.id ? -1 : 1));
    const top: { id: string; at: number }[] = [];
    for (const c of all) {
      if (top.length >= limit) break;
      if (visible(c.id)) top.push({ id: c.id, at: c.updated_at });
    }
    return top.map(({ id, at }): ScoutHit => {
      const days = Math.max(0, now - at) / DAY;
      const score = Math.pow(0.5, days / RECENCY_HALF_LIFE_DAYS);
      return { id, score, reasons: [`updated ${days < 1 ? 'today' : `${Math.round(days)} days ago`}`] };
    });
  },
});
