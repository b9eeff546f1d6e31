import { emptyScores, fuse, LEXICAL_WEIGHT, mergeSpaces, normalise, RANK_K, VECTOR_WEIGHT } from '../../shared/index/fusion';

/** Dense slot scores from a sparse description; slots not listed are absent (NaN). */
const s = (o: Record<number, number>, size = 6) => {
  const out = emptyScores(size);
  for (const [slot, v] of Object.entries(o)) out[Number(slot)] = v;
  return out;
};
const present = (x: Float64Array) => Object.fromEntries([...x.entries()].filter(([, v]) => !Number.isNaN(v)));

describe('normalise', () => {
  it('max: divides by the best score, clamping negatives to 0', () => {
    expect(present(normalise(s({ 1: 4, 2: 2, 3: -1 }), 'max'))).toEqual({ 1: 1, 2: 0.5, 3: 0 });
  });

  it('minmax: spreads scores over [0, 1]; a single or all-equal set maps to 1', () => {
    expect(normalise(s({ 1: 0.9, 2: 0.7, 3: 0.5 }), 'minmax')[2]).toBeCloseTo(0.5);
    expect(present(normalise(s({ 4: 0.3 }), 'minmax'))).toEqual({ 4: 1 });
    expect(present(normalise(s({ 1: 0.3, 2: 0.3 }), 'minmax'))).toEqual({ 1: 1, 2: 1 });
  });

  it('rank: reciprocal-rank scores, ties share a rank', () => {
    const r = normalise(s({ 1: 9, 2: 5, 3: 5, 4: 1 }), 'rank');
    expect(r[1]).toBe(1);
    expect(r[2]).toBe(r[3]);
    expect(r[4]).toBeCloseTo(RANK_K / (RANK_K + 3));
    expect(r[5]).toBeNaN();
  });

  it('keeps absent slots absent and drops non-finite scores', () => {
    expect(present(normalise(emptyScores(4), 'max'))).toEqual({});
    expect(present(normalise(s({ 1: Infinity, 2: 2 }), 'minmax'))).toEqual({ 2: 1 });
  });
});

describe('mergeSpaces', () => {
  it('keeps each note’s best score across spaces', () => {
    expect(present(mergeSpaces([s({ 1: 1, 2: 0.2 }), s({ 2: 0.9, 3: 0.4 })], 6))).toEqual({ 1: 1, 2: 0.9, 3: 0.4 });
    expect(present(mergeSpaces([], 3))).toEqual({});
  });
});

describe('fuse', () => {
  it('combines linearly with the documented weights, a missing side counts 0', () => {
    expect(LEXICAL_WEIGHT + VECTOR_WEIGHT).toBeCloseTo(1);
    const f = fuse(s({ 1: 1, 2: 0.5 }), s({ 2: 1, 3: 1 }));
    expect(f[1]).toBeCloseTo(LEXICAL_WEIGHT);
    expect(f[2]).toBeCloseTo(LEXICAL_WEIGHT * 0.5 + VECTOR_WEIGHT);
    expect(f[3]).toBeCloseTo(VECTOR_WEIGHT);
    expect(f[4]).toBeNaN();
  });

  it('accepts explicit weights and sides of different lengths', () => {
    expect(fuse(s({ 1: 1 }, 2), s({ 1: 0.5, 3: 1 }, 4), { lexical: 0.5, vector: 0.5 })[1]).toBeCloseTo(0.75);
    expect(fuse(s({ 1: 1 }, 2), s({ 3: 1 }, 4), { lexical: 0.5, vector: 0.5 })[3]).toBeCloseTo(0.5);
  });
});
