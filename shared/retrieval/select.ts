/** Final selection: exact hits pinned, MMR diversification, exploration slots when hot. */
import { cosine } from './similarity';
import type { Ranked } from './rerank';
import type { RetrievalCorpus } from './types';

export interface SelectOptions {
  k: number;
  lambda: number;
  /** Slots at the end reserved for exploration candidates (novelty, random). */
  explorationSlots: number;
  /** Added to an exploration candidate's normalised score in MMR (mixed mode when hot). */
  explorationBonus: number;
  /** Candidates MMR considers, as a multiple of k: a few times k is enough, the tail never wins. */
  poolFactor: number;
  /**
   * Cosine above which two notes start to repeat each other, from the space's background (background.ts):
   * only similarity above it counts as redundancy, else every pair of a hashing space (0.35 apart at
   * random) would look a third redundant.
   */
  redundantAbove: number;
}

export function select(ranked: readonly Ranked[], corpus: RetrievalCorpus, opts: SelectOptions): Ranked[] {
  const chosen: Ranked[] = [];
  const taken = new Set<string>();
  const take = (r: Ranked): void => {
    chosen.push(r);
    taken.add(r.id);
  };
  // Exact title/alias/id hits first, whatever the other signals say.
  for (const r of ranked) if ((r.terms.scouts.exact ?? 0) > 0 && chosen.length < opts.k) take(r);

  const explorers = ranked.filter(
    (r) => !taken.has(r.id) && ((r.terms.scouts.novelty ?? 0) > 0 || (r.terms.scouts.random ?? 0) > 0),
  );
  const mainSlots = Math.max(chosen.length, opts.k - Math.min(opts.explorationSlots, explorers.length));
  const pool = ranked.filter((r) => !taken.has(r.id)).slice(0, opts.k * opts.poolFactor);
  const top = pool[0]?.score ?? 0;
  const bottom = pool[pool.length - 1]?.score ?? 0;
  const span = top - bottom || 1;
  const vec = new Map(pool.map((r) => [r.id, corpus.noteVector(r.id)]));
  for (const r of chosen) vec.set(r.id, corpus.noteVector(r.id));
  while (chosen.length < mainSlots) {
    let best: Ranked | null = null;
    let bestValue = -Infinity;
    for (const r of pool) {
      if (taken.has(r.id)) continue;
      const v = vec.get(r.id) ?? null;
      let maxSim = 0;
      if (v) for (const c of chosen) {
        const cv = vec.get(c.id);
        if (cv) maxSim = Math.max(maxSim, cosine(v, cv));
      }
      const redundancy = maxSim > opts.redundantAbove ? (maxSim - opts.redundantAbove) / (1 - opts.redundantAbove) : 0;
      const explore = Math.max(r.terms.scouts.novelty ?? 0, r.terms.scouts.random ?? 0);
      const value = opts.lambda * ((r.score - bottom) / span + opts.explorationBonus * explore) - (1 - opts.lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        best = r;
      }
    }
    if (!best) break;
    take(best);
  }
  // Exploration: novelty first (relevant but different), then random draws.
  const order = [...explorers].sort(
    (a, b) => (b.terms.scouts.novelty ?? 0) - (a.terms.scouts.novelty ?? 0) || b.score - a.score || (a.id < b.id ? -1 : 1),
  );
  for (const r of order) {
    if (chosen.length >= opts.k) break;
    if (!taken.has(r.id)) take({ ...r, exploration: true });
  }
  // Still short (few explorers): fill by score.
  for (const r of ranked) {
    if (chosen.length >= opts.k) break;
    if (!taken.has(r.id)) take(r);
  }
  return chosen;
}
