import { Rng, ZipfSampler, logNormalInt } from '../../bridge/bench/rng';

describe('Rng', () => {
  it('repeats its sequence for a seed and differs between seeds', () => {
    const a = new Rng(7);
    const b = new Rng(7);
    const c = new Rng(8);
    const sa = Array.from({ length: 20 }, () => a.nextU32());
    expect(Array.from({ length: 20 }, () => b.nextU32())).toEqual(sa);
    expect(Array.from({ length: 20 }, () => c.nextU32())).not.toEqual(sa);
  });

  it('keeps draws in their ranges', () => {
    const r = new Rng(1);
    for (let i = 0; i < 2000; i++) {
      const u = r.next();
      expect(u >= 0 && u < 1).toBe(true);
      const n = r.int(3, 5);
      expect(n >= 3 && n <= 5 && Number.isInteger(n)).toBe(true);
    }
  });
});

describe('ZipfSampler', () => {
  it('draws rank r about 1/(r+1) as often as rank 0', () => {
    const z = new ZipfSampler(1000, 1);
    const r = new Rng(3);
    const counts = new Array<number>(1000).fill(0);
    const n = 200_000;
    for (let i = 0; i < n; i++) counts[z.sample(r)]++;
    // Expected share of rank 0 is 1/H(1000) ≈ 0.1336; ranks 1 and 9 get 1/2 and 1/10 of that.
    expect(counts[0] / n).toBeGreaterThan(0.125);
    expect(counts[0] / n).toBeLessThan(0.142);
    expect(counts[1] / counts[0]).toBeGreaterThan(0.45);
    expect(counts[1] / counts[0]).toBeLessThan(0.55);
    expect(counts[9] / counts[0]).toBeGreaterThan(0.08);
    expect(counts[9] / counts[0]).toBeLessThan(0.12);
    expect(counts.reduce((s, c) => s + c, 0)).toBe(n); // every draw landed in 0..999
  });
});

describe('logNormalInt', () => {
  it('centres on its median and respects the clamp', () => {
    const r = new Rng(5);
    const xs = Array.from({ length: 5000 }, () => logNormalInt(r, Math.log(300), 0.6, 50, 5000)).sort((a, b) => a - b);
    expect(xs[0]).toBeGreaterThanOrEqual(50);
    expect(xs[xs.length - 1]).toBeLessThanOrEqual(5000);
    const median = xs[2500];
    expect(median).toBeGreaterThan(280);
    expect(median).toBeLessThan(320);
  });
});
