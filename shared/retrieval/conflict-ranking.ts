/**
 * Resolved conflicts in the ranking: a note refuted or superseded by another never ranks above it when
 * both are returned — it moves to just below its winner, with a reason saying why. (The stats penalty of
 * `refuted` lowers it everywhere else, where the winner is not among the results.)
 */
import type { EdgeRow } from '../stores/memory-types';
import { CONFLICT_EDGE_TYPE, toConflict } from '../stores/conflict-edges';

interface Ranked {
  id: string;
  candidate: { reasons: string[] };
}

export function belowWinners<T extends Ranked>(final: readonly T[], edges: (id: string) => readonly EdgeRow[], title: (id: string) => string): T[] {
  let out = [...final];
  const at = new Map(out.map((r, i) => [r.id, i]));
  const moves: { loser: string; winner: string; state: string }[] = [];
  for (const r of final) {
    for (const e of edges(r.id)) {
      if (e.type !== CONFLICT_EDGE_TYPE || (e.conflict_state !== 'refuted' && e.conflict_state !== 'superseded')) continue;
      const res = toConflict(e).evidence.resolution;
      if (!res?.winner_id || !res.loser_id || res.loser_id !== r.id || !at.has(res.winner_id)) continue;
      moves.push({ loser: r.id, winner: res.winner_id, state: e.conflict_state });
    }
  }
  for (const m of moves) {
    const li = out.findIndex((x) => x.id === m.loser);
    const wi = out.findIndex((x) => x.id === m.winner);
    if (li < 0 || wi < 0 || li > wi) continue;
    const [loser] = out.splice(li, 1);
    out = [...out.slice(0, wi), loser, ...out.slice(wi)]; // wi is now the winner's index + 0 after the removal, so this lands right below it
    loser.candidate.reasons.push(`${m.state} by "${title(m.winner)}": ranked below it`);
  }
  return out;
}
