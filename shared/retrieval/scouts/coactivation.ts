import type { ScoutHit } from '../scout-contract';
import { defineScout } from './define';

/** Nodes used together with the seeds before (coactivation counts from feedback), weighted by seed score. */
export const coactivationScout = defineScout({
  name: 'coactivation',
  wave: 2,
  weight: 0.06,
  run({ corpus, visible, seeds, limit }) {
    const seedIds = new Set(seeds.map((s) => s.id));
    const acc = new Map<string, { score: number; reason: string; best: number }>();
    for (const seed of seeds) {
      for (const c of corpus.coactivated(seed.id)) {
        if (seedIds.has(c.other) || !visible(c.other)) continue;
        // log damping: the 20th co-use says less than the 2nd
        const v = seed.score * Math.log1p(c.count);
        const cur = acc.get(c.other);
        const reason = `used together with "${corpus.note(seed.id)?.title ?? seed.id}" ${c.count}×`;
        if (!cur) acc.set(c.other, { score: v, reason, best: v });
        else {
          cur.score += v;
          if (v > cur.best) Object.assign(cur, { reason, best: v });
        }
      }
    }
    const max = Math.max(0, ...[...acc.values()].map((v) => v.score));
    const hits: ScoutHit[] = [...acc.entries()].map(([id, v]) => ({ id, score: max > 0 ? v.score / max : 0, reasons: [v.reason] }));
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, limit);
  },
});
