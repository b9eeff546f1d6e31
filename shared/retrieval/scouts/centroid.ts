import { CENTROID_SEEDS } from '../constants';
import { cosine } from '../similarity';
import type { ScoutHit } from '../scout-contract';
import { defineScout } from './define';

/**
 * Pseudo-relevance feedback: the centroid of the best few seeds' note vectors stands for "what the query
 * is about" better than the query's own short vector; every wave-1 candidate is scored by its cosine to it
 * (min-max over the pool). Measured on the dev data: +0.004–0.02 nDCG@10 per dataset (docs/evaluation.md, ablations).
 */
export const centroidScout = defineScout({
  name: 'centroid',
  wave: 2,
  weight: 0.15,
  run({ corpus, visible, seeds, pool }) {
    const vecs = seeds
      .filter((s) => visible(s.id))
      .slice(0, CENTROID_SEEDS)
      .map((s) => corpus.noteVector(s.id))
      .filter((v): v is Float32Array => v !== null);
    if (vecs.length === 0 || pool.length === 0) return [];
    const c = new Float32Array(vecs[0].length);
    for (const v of vecs) for (let i = 0; i < c.length; i++) c[i] += v[i];
    let norm = 0;
    for (let i = 0; i < c.length; i++) norm += c[i] * c[i];
    if (norm === 0) return [];
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < c.length; i++) c[i] *= inv;
    const sims: { id: string; sim: number }[] = [];
    for (const h of pool) {
      if (!visible(h.id)) continue;
      const v = corpus.noteVector(h.id);
      if (v) sims.push({ id: h.id, sim: cosine(c, v) });
    }
    if (sims.length === 0) return [];
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of sims) {
      lo = Math.min(lo, s.sim);
      hi = Math.max(hi, s.sim);
    }
    const span = hi - lo;
    const hits: ScoutHit[] = sims.map(({ id, sim }) => ({
      id,
      score: span > 0 ? (sim - lo) / span : 0,
      reasons: [`close to the best matches as a group (cosine ${sim.toFixed(2)} to their centroid)`],
    }));
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.filter((h) => h.score > 0);
  },
});
