import { percentile, peakRssMb, timed } from '../../bridge/bench/stats';

describe('percentile', () => {
  it('interpolates between the closest ranks', () => {
    const xs = [10, 1, 4, 3, 2, 9, 8, 7, 6, 5];
    expect(percentile(xs, 50)).toBe(5.5);
    expect(percentile(xs, 0)).toBe(1);
    expect(percentile(xs, 100)).toBe(10);
    expect(percentile(xs, 95)).toBeCloseTo(9.55, 10);
    expect(percentile([4], 95)).toBe(4);
  });

  it('is NaN without samples and leaves its input unsorted', () => {
    expect(percentile([], 50)).toBeNaN();
    const xs = [3, 1, 2];
    percentile(xs, 50);
    expect(xs).toEqual([3, 1, 2]);
  });
});

describe('peakRssMb and timed', () => {
  it('report finite, positive figures and pass the value through', async () => {
    expect(peakRssMb()).toBeGreaterThan(1);
    const r = await timed(async () => 'v');
    expect(r.value).toBe('v');
    expect(Number.isFinite(r.ms) && r.ms >= 0).toBe(true);
  });
});
