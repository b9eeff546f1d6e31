import { DAY_MS } from '../../shared/learning/constants';
import { SPACED_REPETITION } from '../../shared/model/spaced-repetition';
import type { Harness } from '../engine/harness';
import { A, B, C, D, openLearning, retrieveAll } from './fixture';

/**
 * Spaced repetition (shared/model/spaced-repetition.ts): a use is a successful recall; the recall interval
 * grows by the ease only with uses spaced at least one interval apart; the re-rank's spaced_repetition term
 * is the note's retrievability, which fades with the time since its last use, slower the longer its interval.
 */

let h: Harness;
beforeEach(async () => {
  h = await openLearning();
});
afterEach(async () => {
  await h.engine.close();
});

const stats = (id: string) => h.engine.services.learning.memory.stats.get(id);
const cite = async (ids: string[]) => h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: ids });
const interval = (id: string) => stats(id).spaced_rep_strength;
const HOUR_MS = 3600 * 1000;
const { first_interval_days: first, ease } = SPACED_REPETITION;

/** Each note's spaced_repetition term in an unrecorded retrieval now. */
async function srTerms(): Promise<Record<string, number>> {
  const r = await h.engine.services.retrieval.retrieve({ query_text: 'connection pool' }, { record: false, jitter: false, seed: 1 });
  return Object.fromEntries(r.nodes.map((n) => [n.id, n.terms.spaced_repetition]));
}

test('retrieval alone is no recall: three recorded retrievals leave every interval and term where they were', async () => {
  for (let i = 0; i < 3; i++) {
    await retrieveAll(h);
    h.clock.advance(2 * DAY_MS);
  }
  for (const id of [A, B, C, D]) expect(stats(id)).toMatchObject({ spaced_rep_strength: first, last_used_at: null });
  expect(await srTerms()).toEqual({ [A]: 0, [B]: 0, [C]: 0, [D]: 0 });
});

test('the interval grows by the ease only when a use comes at least one interval after the previous one', async () => {
  await cite([A]);
  expect(interval(A)).toBe(first); // first recall: SM-2's first interval
  h.clock.advance(2 * HOUR_MS);
  await cite([A]);
  expect(interval(A)).toBe(first); // massed: sooner than the interval, no growth
  h.clock.advance(first * DAY_MS);
  await cite([A]);
  expect(interval(A)).toBe(first * ease);
  h.clock.advance(first * ease * DAY_MS - HOUR_MS);
  await cite([A]);
  expect(interval(A)).toBe(first * ease); // an hour short of the interval
  h.clock.advance(first * ease * DAY_MS);
  await cite([A]);
  expect(interval(A)).toBe(first * ease * ease);
  expect(interval(B)).toBe(first); // shown every time, never used
});

test('a rejected output is no successful recall: the interval does not grow', async () => {
  await cite([A]);
  h.clock.advance(3 * DAY_MS);
  await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [A], accepted: false });
  expect(interval(A)).toBe(first);
});

test('the ranking term: 1 just after a use, 0.9 one interval later, fading slower for a note recalled at spaced intervals', async () => {
  // B is recalled three times, each an interval apart; A once, at B's last recall.
  await cite([B]);
  h.clock.advance(first * DAY_MS);
  await cite([B]);
  h.clock.advance(first * ease * DAY_MS);
  await cite([A, B]);
  expect([interval(A), interval(B)]).toEqual([first, first * ease * ease]);
  expect(await srTerms()).toEqual({ [A]: 1, [B]: 1, [C]: 0, [D]: 0 });

  h.clock.advance(first * DAY_MS);
  expect((await srTerms())[A]).toBeCloseTo(0.9, 4);
  h.clock.advance(8 * first * DAY_MS); // nine intervals of A after its use: half
  const later = await srTerms();
  expect(later[A]).toBeCloseTo(0.5, 4);
  expect(later[B]).toBeCloseTo(1 / (1 + 9 / (9 * first * ease * ease)), 4);
  expect(later[B]).toBeGreaterThan(later[A]);
  expect([later[C], later[D]]).toEqual([0, 0]);
});
