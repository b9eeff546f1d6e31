import { SCOUT_WEIGHTS } from './scouts';
import type { ScoutHit, ScoutName } from './types';

/** One node with everything the scouts said about it. */
export interface Candidate {
  id: string;
  scouts: Partial<Record<ScoutName, number>>;
  reasons: string[];
  /** Σ SCOUT_WEIGHTS[scout] × score. */
  base: number;
}

/** Merges scout outputs by node: scores per scout, reasons unioned (in scout order), base recomputed. */
export function mergeHits(into: Map<string, Candidate>, scout: ScoutName, hits: readonly ScoutHit[]): void {
  for (const h of hits) {
    const score = Number.isFinite(h.score) ? Math.max(0, Math.min(1, h.score)) : 0;
    let c = into.get(h.id);
    if (!c) into.set(h.id, (c = { id: h.id, scouts: {}, reasons: [], base: 0 }));
    const prev = c.scouts[scout];
    if (prev === undefined || score > prev) {
      c.base += SCOUT_WEIGHTS[scout] * (score - (prev ?? 0));
      c.scouts[scout] = score;
    }
    for (const r of h.reasons) if (!c.reasons.includes(r)) c.reasons.push(r);
  }
}

/** Candidates best first by base, ties by id, as ScoutHits with base normalised by the best. */
export function rankByBase(candidates: Iterable<Candidate>): ScoutHit[] {
  const list = [...candidates].sort((a, b) => b.base - a.base || (a.id < b.id ? -1 : 1));
  const max = list[0]?.base ?? 0;
  return list.map((c) => ({ id: c.id, score: max > 0 ? c.base / max : 0, reasons: c.reasons }));
}
