import { DAY_MS } from '../../shared/learning/constants';
import { SPACED_REPETITION } from '../../shared/model/spaced-repetition';
import { note, type Harness } from '../engine/harness';
import { RERANK } from '../../shared/retrieval/constants';
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

test('the ranking term: nothing for a note used once or in one sitting; for one recalled at spaced intervals, its retrievability × (1 − first/S)', async () => {
  // B is recalled three times, each an interval apart; A once, at B's last recall; C twice in one sitting.
  await cite([B]);
  h.clock.advance(first * DAY_MS);
  await cite([B]);
  h.clock.advance(first * ease * DAY_MS);
  await cite([A, B, C]);
  await cite([C]);
  const S = first * ease * ease;
  expect([interval(A), interval(B), interval(C)]).toEqual([first, S, first]);
  const lasting = 1 - first / S;
  expect(await srTerms()).toEqual({ [A]: 0, [B]: round(lasting), [C]: 0, [D]: 0 });

  h.clock.advance(S * DAY_MS); // one interval of B after its last use: retrievability 0.9
  expect((await srTerms())[B]).toBeCloseTo(0.9 * lasting, 4);
  h.clock.advance(8 * S * DAY_MS); // nine intervals: half
  expect((await srTerms())[B]).toBeCloseTo(0.5 * lasting, 4);
});

test('in the ranking: of two twin notes used equally often, the one recalled a day apart outranks the one used twice in an hour, by RERANK.spaced_repetition × its term', async () => {
  await h.engine.close();
  const X = '55555555-5555-4555-8555-555555555555';
  const Y = '66666666-6666-4666-8666-666666666666';
  const text = 'Rotate the deploy signing key every quarter and record the new fingerprint.\n';
  h = await openLearning({ 'project/x.md': note({ id: X, title: 'Signing key' }, text), 'project/y.md': note({ id: Y, title: 'Signing key' }, text) });
  const query = { query_text: 'deploy signing key', agent_id: 'agent-a' };
  const use = async (ids: string[]) => {
    const r = await h.engine.services.retrieval.retrieve(query, { jitter: false, seed: 1 });
    await h.engine.services.learning.feedback({ receipt_id: r.receipt_id!, cited: ids });
  };
  // Without the expansion scout: the twins' used-for and ignored-for words differ only by their decay, and
  // that sliver of score is not the spaced-repetition term this spec measures.
  const ranked = async () => (await h.engine.services.retrieval.retrieve(query, { record: false, jitter: false, seed: 1, without: ['expansion'] })).nodes;
  const [first0, second0] = await ranked();
  expect([first0.id, second0.id, first0.score]).toEqual([X, Y, second0.score]); // twins: a tie, broken by id

  await use([Y]); // Y at t0
  h.clock.advance(DAY_MS - HOUR_MS);
  await use([X]); // X an hour before its second use: massed
  h.clock.advance(HOUR_MS);
  await use([X, Y]); // both used twice, last use now; Y a day after its first use
  expect([stats(X).use_count, stats(Y).use_count, interval(X), interval(Y)]).toEqual([2, 2, first, first * ease]);
  const [top, next] = await ranked();
  expect([top.id, next.id]).toEqual([Y, X]);
  expect(next.terms.spaced_repetition).toBe(0);
  expect(top.terms.spaced_repetition).toBeCloseTo(1 - first / (first * ease), 4);
  expect(top.score - next.score).toBeCloseTo(RERANK.spaced_repetition * top.terms.spaced_repetition, 3);
});

const round = (x: number): number => Math.round(x * 1e4) / 1e4;
