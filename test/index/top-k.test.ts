import { topK } from '../../shared/index/top-k';

describe('topK', () => {
  it('returns the k best in order, the same as a full sort', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const xs = Array.from({ length: 500 }, () => Math.floor(rnd() * 100));
    const idx = xs.map((v, i) => [v, i] as const);
    const better = (a: readonly [number, number], b: readonly [number, number]) => (a[0] !== b[0] ? a[0] > b[0] : a[1] < b[1]);
    const sorted = [...idx].sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    expect(topK(idx, 10, better)).toEqual(sorted.slice(0, 10));
    expect(topK(idx, 1000, better)).toEqual(sorted);
  });

  it('handles k = 0 and empty input', () => {
    expect(topK([1, 2], 0, (a, b) => a > b)).toEqual([]);
    expect(topK([], 3, (a: number, b: number) => a > b)).toEqual([]);
  });
});
