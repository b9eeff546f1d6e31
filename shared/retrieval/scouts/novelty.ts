import { cosine } from '../similarity';
import type { ScoutHit } from '../scout-contract';
import { defineScout } from './define';

/** How many relevant-but-different notes the novelty scout proposes. */
export const NOVELTY_PICKS = 5;

/**
 * Exploration, `novelty` mode: among the relevant wave-1 candidates below the seeds (already gated), prefer those least similar to the seeds — MMR with a low λ. Relevance is the
 * candidate's own wave-1 evidence; difference is 1 − its max cosine to any seed.
 */
export const noveltyScout = defineScout({
  name: 'novelty',
  wave: 2,
  weight: 0.02,
  run({ corpus, visible, seeds, pool }) {
    if (seeds.length === 0) return [];
    const seedIds = new Set(seeds.map((s) => s.id));
    const seedVecs = seeds.filter((s) => visible(s.id)).map((s) => corpus.noteVector(s.id)).filter((v): v is Float32Array => v !== null);
    if (seedVecs.length === 0) return [];
    const scored: ScoutHit[] = [];
    for (const h of pool) {
      if (seedIds.has(h.id) || !visible(h.id)) continue;
      const v = corpus.noteVector(h.id);
      if (!v) continue;
      const maxSim = Math.max(...seedVecs.map((s) => cosine(s, v)));
      const score = 0.4 * h.score + 0.6 * (1 - Math.max(0, maxSim));
      scored.push({ id: h.id, score, reasons: [`relevant (${h.score.toFixed(2)}) yet unlike the top results (max similarity ${maxSim.toFixed(2)})`] });
    }
    scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    const top = scored.slice(0, NOVELTY_PICKS);
    const max = Math.max(0, ...top.map((h) => h.score));
    for (const h of top) h.score = max > 0 ? h.score / max : 0;
    return top;
  },
});
