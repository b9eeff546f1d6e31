import type { ScoutHit } from '../scout-contract';
import { defineScout } from './define';

/** The other ends of `contradicts` edges touching the seeds: a claim should arrive with its counter-claim. */
export const contradictionsScout = defineScout({
  name: 'contradictions',
  wave: 2,
  weight: 0.04,
  run({ corpus, visible, seeds, limit }) {
    const hits = new Map<string, ScoutHit>();
    for (const seed of seeds) {
      for (const e of corpus.edges(seed.id)) {
        if (e.type !== 'contradicts') continue;
        const other = e.from_id === seed.id ? e.to_id : e.from_id;
        if (other === seed.id || !visible(other)) continue;
        const v = seed.score * Math.max(0.1, Math.min(1, e.weight));
        const cur = hits.get(other);
        if (!cur || cur.score < v) {
          const state = e.conflict_state ? `, ${e.conflict_state}` : '';
          hits.set(other, { id: other, score: v, reasons: [`contradicts "${corpus.note(seed.id)?.title ?? seed.id}"${state}`] });
        }
      }
    }
    const list = [...hits.values()];
    const max = Math.max(0, ...list.map((h) => h.score));
    for (const h of list) h.score = max > 0 ? h.score / max : 0;
    list.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return list.slice(0, limit);
  },
});
