import { gainInterval, type PairedScores } from '../../bridge/eval/bootstrap';

/** The feedback gain's 95% interval: a paired, stratified bootstrap over held-out queries. */

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
/** The gain itself, as the macro computes it (mean of dataset means, after / before − 1). */
const pointGain = (sets: readonly PairedScores[]): number => mean(sets.map((d) => mean(d.after))) / mean(sets.map((d) => mean(d.before))) - 1;

const ramp = (n: number, lo: number, hi: number): number[] => Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / (n - 1));

test('no change on any query: the interval is exactly [0, 0]', () => {
  const before = ramp(50, 0.1, 0.9);
  expect(gainInterval([{ before, after: before }])).toEqual([0, 0]);
});

test('every query 10% better: the gain is +10% in every resample, so the interval is that point', () => {
  const before = ramp(40, 0.2, 0.8);
  const [lo, hi] = gainInterval([{ before, after: before.map((x) => x * 1.1) }]);
  expect(lo).toBeCloseTo(0.1, 10);
  expect(hi).toBeCloseTo(0.1, 10);
});

test('pairing: a uniform shift is certain however different the queries are; the same shift on half the queries is not', () => {
  const before = ramp(60, 0.05, 0.95);
  const all = gainInterval([{ before, after: before.map((x) => x + 0.05) }]);
  expect(all[1] - all[0]).toBeLessThan(0.05); // only the shift's share of each resample's mean varies
  const half = gainInterval([{ before, after: before.map((x, i) => (i % 2 ? x + 0.1 : x)) }]);
  expect(half[0]).toBeLessThan(pointGain([{ before, after: before.map((x, i) => (i % 2 ? x + 0.1 : x)) }]));
  expect(half[1] - half[0]).toBeGreaterThan(all[1] - all[0]);
});

test('the interval contains the point gain, and a mixed result straddles zero', () => {
  const before = ramp(30, 0.3, 0.7);
  const after = before.map((x, i) => (i % 3 === 0 ? x - 0.2 : x + 0.1)); // two up, one down: net ≈ 0
  const [lo, hi] = gainInterval([{ before, after }]);
  const g = pointGain([{ before, after }]);
  expect(lo).toBeLessThanOrEqual(g);
  expect(hi).toBeGreaterThanOrEqual(g);
  expect(lo).toBeLessThan(0);
  expect(hi).toBeGreaterThan(0);
});

test('macro: datasets are resampled separately and weigh equally, as the macro mean does', () => {
  const a = { before: ramp(10, 0.4, 0.6), after: ramp(10, 0.4, 0.6).map((x) => x * 1.2) };
  const b = { before: ramp(200, 0.4, 0.6), after: ramp(200, 0.4, 0.6) };
  expect(pointGain([a, b])).toBeCloseTo(0.1, 2); // 20% on one dataset, 0% on the other, whatever their sizes
  const [lo, hi] = gainInterval([a, b]);
  expect(lo).toBeGreaterThan(0.05);
  expect(hi).toBeLessThan(0.15);
});

test('seeded: the same inputs give the same interval; empty datasets are left out; unpaired input is refused', () => {
  const d = { before: ramp(25, 0.1, 0.9), after: ramp(25, 0.1, 0.9).map((x, i) => x + (i % 2 ? 0.05 : -0.03)) };
  expect(gainInterval([d])).toEqual(gainInterval([d]));
  expect(gainInterval([d, { before: [], after: [] }])).toEqual(gainInterval([d]));
  expect(gainInterval([])).toEqual([0, 0]);
  expect(() => gainInterval([{ before: [0.5, 0.5], after: [0.5] }])).toThrow(/differ in length/);
});
