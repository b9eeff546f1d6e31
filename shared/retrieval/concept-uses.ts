/**
 * When feedback found each concept note used, for the repeated-use penalty (rerank.ts conceptDamping):
 * one learned mark holding, per concept, the times of its uses in the last CONCEPT_REPEAT_WINDOW_MS.
 * Only use counts: a concept that is merely retrieved again and again is not pushed down (retrieval
 * teaches nothing), one that keeps being used is, so its members — the evidence — get their turn.
 */
import { CONCEPT_REPEAT_WINDOW_MS } from './constants';

/** The learned mark (memory store) the uses are kept in. */
export const CONCEPT_USES_MARK = 'concept-uses';

type Uses = Record<string, number[]>;

function read(mark: unknown): Uses {
  return mark !== null && typeof mark === 'object' && !Array.isArray(mark) ? (mark as Uses) : {};
}

/** Uses of `id` in (now − window, now]. */
export function conceptUsesIn(mark: unknown, id: string, now: number): number {
  const times = read(mark)[id];
  if (!Array.isArray(times)) return 0;
  let n = 0;
  for (const t of times) if (typeof t === 'number' && t > now - CONCEPT_REPEAT_WINDOW_MS && t <= now) n++;
  return n;
}

/** The mark with one use of each id at `at`; times out of every window (and concepts left without any) are dropped. */
export function withConceptUses(mark: unknown, ids: readonly string[], at: number): Uses {
  const out: Uses = {};
  for (const [id, times] of Object.entries(read(mark))) {
    const live = Array.isArray(times) ? times.filter((t) => typeof t === 'number' && t > at - CONCEPT_REPEAT_WINDOW_MS) : [];
    if (live.length) out[id] = live;
  }
  for (const id of ids) (out[id] ??= []).push(at);
  return out;
}
