import type { MemoryEngine } from '../../shared/engine';
import { HOT } from '../../shared/retrieval/constants';
import type { RetrievalResult } from '../../shared/retrieval/types';
import { openHarness } from '../engine/harness';
import { exampleVaultFiles } from '../panels/example-world';

/**
 * The temperature moves on a real vault: over the bundled example vault (read into the in-memory twins,
 * so the folder is never touched), questions that name a note's subject run cold, vague ones hot and
 * words the vault has never seen hottest; a hot query takes the hot path, and its receipt says so.
 * The queries were written before any temperature was measured, and no constant was chosen on them.
 */
const SPECIFIC = ['Postgres 16 upgrade lock contention', 'worker out of memory with large batch sizes', 'idempotency keys on the ingest API', 'cache stampede after a deploy'];
const VAGUE = ['what should I know', 'problems we had', 'ideas and notes'];
const MIXED = ['retry policy and the reading list'];
const NONSENSE = ['xyzzy plugh', 'qwfp zxcv blorb'];

let engine: MemoryEngine;
const temps = new Map<string, number>();

beforeAll(async () => {
  ({ engine } = await openHarness(exampleVaultFiles()));
  await engine.reconcile();
  for (const q of [...SPECIFIC, ...VAGUE, ...MIXED, ...NONSENSE]) temps.set(q, (await ask(q)).temperature);
}, 60_000);

afterAll(() => engine.close());

function ask(q: string, record = false): Promise<RetrievalResult> {
  return engine.services.retrieval.retrieve({ query_text: q }, { record, jitter: false, seed: 1 });
}
const t = (qs: readonly string[]): number[] => qs.map((q) => temps.get(q)!);
const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

test('ten queries of varying specificity spread their temperatures (std ≥ 0.1)', () => {
  const all = [...temps.values()];
  const m = mean(all);
  const std = Math.sqrt(mean(all.map((x) => (x - m) ** 2)));
  expect(std).toBeGreaterThanOrEqual(0.1);
});

test('specific questions run colder than vague ones; the vaguest and nonsense run hot (≥ 0.6), nonsense hottest', () => {
  expect(mean(t(SPECIFIC)) + 0.1).toBeLessThan(mean(t(VAGUE)));
  expect(Math.max(...t(VAGUE))).toBeGreaterThanOrEqual(0.6);
  for (const x of t(NONSENSE)) expect(x).toBeGreaterThanOrEqual(0.6);
  expect(Math.min(...t(NONSENSE))).toBeGreaterThan(Math.max(...t(SPECIFIC), ...t(VAGUE), ...t(MIXED)));
});

test('a hot query takes the hot path (wider scan, exploration slot, more diversity) and its receipt shows it', async () => {
  const hot = await ask('xyzzy plugh', true);
  expect(hot.temperature).toBeGreaterThan(HOT);
  const cold = await ask(SPECIFIC[0]);
  expect(cold.temperature).toBeLessThan(HOT);
  expect(hot.hot_path.wider_scan).toBe(true);
  expect(cold.hot_path.wider_scan).toBe(false);
  expect(hot.hot_path.scout_limit).toBeGreaterThan(cold.hot_path.scout_limit);
  expect(hot.hot_path.seeds).toBeGreaterThan(cold.hot_path.seeds);
  expect(hot.hot_path.exploration_slots).toBeGreaterThan(0);
  expect(hot.hot_path.mmr_lambda).toBeLessThan(cold.hot_path.mmr_lambda);
  const receipt = (await engine.services.retrieval.receipts.query({ receipt_id: hot.receipt_id! })).receipts[0];
  expect(receipt.hot_path).toEqual(hot.hot_path);
  expect(receipt.temperature).toBe(hot.temperature);
});
