import { HOP_DECAY, WIKILINK_WEIGHT } from '../constants';
import type { RetrievalCorpus, ScoutHit } from '../scout-contract';
import { topK } from '../../index/top-k';
import { defineScout } from './define';

/** Hop-1 paths expanded to a second hop, strongest first. */
export const HOP2_FRONTIER = 30;

interface Step {
  to: string;
  weight: number;
  via: string;
}

/** Wiki-links both ways plus typed edges (not `contradicts`: that is the contradictions scout's). */
function neighbours(corpus: RetrievalCorpus, id: string): Step[] {
  const out: Step[] = [];
  for (const to of corpus.linksOut(id)) out.push({ to, weight: WIKILINK_WEIGHT, via: 'links to' });
  for (const to of corpus.linksIn(id)) out.push({ to, weight: WIKILINK_WEIGHT, via: 'linked from' });
  for (const e of corpus.edges(id)) {
    if (e.type === 'contradicts') continue;
    const to = e.from_id === id ? e.to_id : e.from_id;
    out.push({ to, weight: Math.max(0, Math.min(1, e.weight)), via: `${e.type} edge` });
  }
  return out;
}

/**
 * Neighbours of the seed set over wiki-links and typed weighted edges, 1–2 hops: each path contributes
 * seed score × edge weight (× HOP_DECAY × second weight on hop 2); a node sums its paths, then the scout
 * normalises by its best.
 */
export const graphScout = defineScout({
  name: 'graph',
  wave: 2,
  weight: 0.08,
  run({ corpus, visible, seeds, limit }) {
    const seedIds = new Set(seeds.map((s) => s.id));
    // Each node keeps its summed score and only the parts of its best path; the reason text is written for
    // the hits returned (a hub seed can add thousands of paths per scan).
    interface Acc {
      score: number;
      best: number;
      title: string;
      via: string;
      mid: string | null;
    }
    const acc = new Map<string, Acc>();
    const add = (to: string, v: number, title: string, via: string, mid: string | null): void => {
      if (seedIds.has(to) || v <= 0) return;
      const cur = acc.get(to);
      if (!cur) acc.set(to, { score: v, best: v, title, via, mid });
      else {
        cur.score += v;
        if (v > cur.best) Object.assign(cur, { best: v, title, via, mid });
      }
    };
    // Hop 1 from every seed; hop 2 only from the strongest hop-1 paths (a hub note can link to hundreds).
    const frontier: { seed: ScoutHit; title: string; step: Step; v: number }[] = [];
    for (const seed of seeds) {
      const title = corpus.note(seed.id)?.title ?? seed.id;
      for (const a of neighbours(corpus, seed.id)) {
        if (!visible(a.to)) continue;
        const v = seed.score * a.weight;
        add(a.to, v, title, a.via, null);
        frontier.push({ seed, title, step: a, v });
      }
    }
    frontier.sort((x, y) => y.v - x.v || (x.step.to < y.step.to ? -1 : 1));
    for (const { seed, title, step: a, v } of frontier.slice(0, HOP2_FRONTIER)) {
      for (const b of neighbours(corpus, a.to)) {
        if (b.to === seed.id || !visible(b.to)) continue;
        add(b.to, v * b.weight * HOP_DECAY, title, b.via, a.to);
      }
    }
    let max = 0;
    for (const v of acc.values()) if (v.score > max) max = v.score;
    const best = topK(acc.entries(), limit, ([ia, a], [ib, b]) => a.score > b.score || (a.score === b.score && ia < ib));
    return best.map(([id, v]) => ({
      id,
      score: max > 0 ? v.score / max : 0,
      reasons: [v.mid === null ? `${v.via} "${v.title}" (1 hop)` : `2 hops from "${v.title}" via "${corpus.note(v.mid)?.title ?? v.mid}"`],
    }));
  },
});
