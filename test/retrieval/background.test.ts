import { noiseMaxZ, pairBackground, spread, standOut } from '../../shared/retrieval/background';
import { BACKGROUND } from '../../shared/retrieval/constants';

/** The background a space's similarities are judged against: random note pairs, and noise's best hit. */
const unit = (v: number[]): Float32Array => {
  const n = Math.hypot(...v);
  return Float32Array.from(v.map((x) => x / n));
};

test('a small vault uses every pair; the mean and spread are those of the pairs', () => {
  const vecs: Record<string, Float32Array> = { a: unit([1, 0]), b: unit([0, 1]), c: unit([1, 1]) };
  const bg = pairBackground(Object.keys(vecs), (id) => vecs[id], 'space')!;
  const cos = [0, Math.SQRT1_2, Math.SQRT1_2];
  expect(bg.n).toBe(3);
  expect(bg.mean).toBeCloseTo(spread(cos).mean, 6);
  expect(bg.sd).toBeCloseTo(spread(cos).sd, 6);
});

test('a large vault is sampled: BACKGROUND.pairs pairs, the same ones for the same space', () => {
  const ids = Array.from({ length: 500 }, (_, i) => `n${i}`);
  const vec = (id: string): Float32Array => unit([1, Number(id.slice(1)) % 7, Number(id.slice(1)) % 3]);
  const a = pairBackground(ids, vec, 'space-1')!;
  expect(a.n).toBe(BACKGROUND.pairs);
  expect(pairBackground(ids, vec, 'space-1')).toEqual(a);
  expect(a.mean).toBeGreaterThan(0.5);
  expect(a.mean).toBeLessThan(1);
});

test('too few notes with vectors: no background', () => {
  expect(pairBackground(['a', 'b'], () => unit([1, 0]), 's')).toBeNull();
  expect(pairBackground(['a', 'b', 'c', 'd'], () => null, 's')).toBeNull();
});

test("noise's best hit lies further out in a larger vault; a hit counts only beyond it", () => {
  expect(noiseMaxZ(50)).toBeGreaterThan(1.8);
  expect(noiseMaxZ(10_000)).toBeGreaterThan(noiseMaxZ(50));
  expect(noiseMaxZ(10_000)).toBeLessThan(4.5);
  const contrast = { top: 1, mean: 0.1, sd: 0.1, n: 50 };
  expect(standOut(contrast)).toBeCloseTo(9 - noiseMaxZ(50), 6);
  expect(standOut({ ...contrast, sd: 0 })).toBe(0);
  expect(standOut(null)).toBe(0);
});
