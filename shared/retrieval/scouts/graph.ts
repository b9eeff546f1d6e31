import { HOP_DECAY, WIKILINK_WEIGHT } from '../constants';
import type { RetrievalCorpus, Scout, ScoutHit } from '../types';

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
export const graphScout: Scout = {
  name: 'graph',
  wave: 2,
  run({ corpus, visible, seeds, limit }) {
    const seedIds = new Set(seeds.map((s) => s.id));
    const acc = new Map<string, { score: number; reason: string; best: number }>();
    const add = (to: string, v: number, reason: string): void => {
      if (seedIds.has(to) || v <= 0) return;
      const cur = acc.get(to);
      if (!cur) acc.set(to, { score: v, reason, best: v });
      else {
        cur.score += v;
        if (v > cur.best) Object.assign(cur, { reason, best: v });
      }
    };
    // Hop 1 from every seed; hop 2 only from the strongest hop-1 paths (a hub note can link to hundreds).
    const frontier: { seed: ScoutHit; title: string; step: Step; v: number }[] = [];
    for (const seed of seeds) {
      const title = corpus.note(seed.id)?.title ?? seed.id;
      for (const a of neighbours(corpus, seed.id)) {
        if (!visible(a.to)) continue;
        const v = seed.score * a.weight;
        add(a.to, v, `${a.via} "${title}" (1 hop)`);
        frontier.push({ seed, title, step: a, v });
      }
    }
    frontier.sort((x, y) => y.v - x.v || (x.step.to < y.step.to ? -1 : 1));
    for (const { seed, title, step: a, v } of frontier.slice(0, HOP2_FRONTIER)) {
      for (const b of neighbours(corpus, a.to)) {
        if (b.to === seed.id || !visible(b.to)) continue;
        add(b.to, v * b.weight * HOP_DECAY, `2 hops from "${title}" via "${corpus.note(a.to)?.title ?? a.to}"`);
      }
    }
    const max = Math.max(0, ...[...acc.values()].map((v) => v.score));
    const hits: ScoutHit[] = [...acc.entries()].map(([id, v]) => ({ id, score: max > 0 ? v.score / max : 0, reasons: [v.reason] }));
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, limit);
  },
};
