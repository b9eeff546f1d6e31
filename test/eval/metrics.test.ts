import { dcgAtK, macroMean, mrrAtK, ndcgAtK, recallAtK, ScoreAccumulator, scoreQuery } from '../../bridge/eval/metrics';

const graded = new Map([['d1', 2], ['d2', 1], ['d3', 0]]);
const L3 = Math.log2(3);

describe('dcgAtK', () => {
  it('discounts gain at rank i by log2(i + 1) and stops at k', () => {
    expect(dcgAtK([3, 2, 1], 10)).toBeCloseTo(3 + 2 / L3 + 1 / 2, 10);
    expect(dcgAtK([3, 2, 1], 1)).toBe(3);
    expect(dcgAtK([], 10)).toBe(0);
  });
});

describe('ndcgAtK with graded gains', () => {
  it('scores a ranking against the ideal ordering of the qrels grades', () => {
    // DCG = 0 + 1/log2(3) + 2/log2(4); IDCG = 2 + 1/log2(3)
    expect(ndcgAtK(['x', 'd2', 'd1'], graded, 10)).toBeCloseTo((1 / L3 + 1) / (2 + 1 / L3), 10);
    expect(ndcgAtK(['x', 'd2', 'd1'], graded, 2)).toBeCloseTo(1 / L3 / (2 + 1 / L3), 10);
    expect(ndcgAtK(['x', 'd2', 'd1'], graded, 1)).toBe(0);
  });

  it('is 1 for the ideal ranking and lower when grades are swapped', () => {
    expect(ndcgAtK(['d1', 'd2'], graded, 10)).toBeCloseTo(1, 12);
    expect(ndcgAtK(['d2', 'd1'], graded, 10)).toBeCloseTo((1 + 2 / L3) / (2 + 1 / L3), 10);
  });

  it('builds the ideal from the qrels, truncated at k', () => {
    const many = new Map(Array.from({ length: 12 }, (_, i) => [`r${i}`, 1] as [string, number]));
    const ranked = Array.from({ length: 10 }, (_, i) => `r${i}`);
    expect(ndcgAtK(ranked, many, 10)).toBeCloseTo(1, 12);
    expect(recallAtK(ranked, many, 10)).toBeCloseTo(10 / 12, 12);
  });

  it('is 0 for an empty ranking or when nothing is relevant', () => {
    expect(ndcgAtK([], graded, 10)).toBe(0);
    expect(ndcgAtK(['d3'], new Map([['d3', 0]]), 10)).toBe(0);
    expect(ndcgAtK(['d1'], new Map(), 10)).toBe(0);
  });

  it('treats negative grades as no gain', () => {
    expect(ndcgAtK(['bad', 'd1'], new Map([['bad', -1], ['d1', 1]]), 10)).toBeCloseTo(1 / L3, 10);
  });
});

describe('recallAtK', () => {
  it('counts documents with grade > 0 found in the first k over all relevant', () => {
    expect(recallAtK(['x', 'd2', 'd1'], graded, 10)).toBe(1);
    expect(recallAtK(['x', 'd2', 'd1'], graded, 2)).toBe(0.5);
    expect(recallAtK(['d3'], graded, 10)).toBe(0);
    expect(recallAtK([], graded, 10)).toBe(0);
    expect(recallAtK(['d1'], new Map(), 10)).toBe(0);
  });
});

describe('mrrAtK', () => {
  it('is the reciprocal rank of the first relevant document within k', () => {
    expect(mrrAtK(['x', 'd3', 'd2', 'd1'], graded, 10)).toBeCloseTo(1 / 3, 12);
    expect(mrrAtK(['d1'], graded, 10)).toBe(1);
    expect(mrrAtK(['x', 'd3', 'd2'], graded, 2)).toBe(0);
    expect(mrrAtK([], graded, 10)).toBe(0);
  });
});

describe('scoreQuery', () => {
  it('returns null when the qrels list nothing relevant, so the query is skipped', () => {
    expect(scoreQuery(['d1'], undefined, 10)).toBeNull();
    expect(scoreQuery(['d3'], new Map([['d3', 0]]), 10)).toBeNull();
  });

  it('counts a document returned twice (two chunks) once, at its best rank', () => {
    expect(scoreQuery(['d1', 'd1', 'd2'], graded, 10)).toEqual({ ndcg: expect.closeTo(1, 12), recall: 1, mrr: 1 });
  });
});

describe('ScoreAccumulator and macroMean', () => {
  it('averages evaluated queries and counts skipped ones separately', () => {
    const acc = new ScoreAccumulator();
    acc.add({ ndcg: 1, recall: 1, mrr: 1 });
    acc.add({ ndcg: 0.5, recall: 0, mrr: 0.25 });
    acc.add(null);
    expect(acc.count).toBe(2);
    expect(acc.skipped).toBe(1);
    expect(acc.mean()).toEqual({ ndcg: 0.75, recall: 0.5, mrr: 0.625 });
    expect(new ScoreAccumulator().mean()).toEqual({ ndcg: 0, recall: 0, mrr: 0 });
  });

  it('weights every dataset equally', () => {
    expect(macroMean([{ ndcg: 1, recall: 0.5, mrr: 1 }, { ndcg: 0, recall: 0.5, mrr: 0.5 }])).toEqual({ ndcg: 0.5, recall: 0.5, mrr: 0.75 });
    expect(macroMean([])).toEqual({ ndcg: 0, recall: 0, mrr: 0 });
  });
});
