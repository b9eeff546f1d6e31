import { LithosError } from '../../shared/errors';
import { VectorSpace, VectorStore } from '../../shared/index/vector-store';

const v = (...xs: number[]) => Float32Array.from(xs);

/** Runs a search and returns { slot: [score, chunk] } for the slots that got a score. */
function run(space: VectorSpace, q: Float32Array, allowed: Uint8Array | null = null, size = 1100) {
  const best = new Float64Array(size).fill(NaN);
  const chunk = new Int32Array(size);
  space.search(q, allowed, best, chunk);
  const out: Record<number, [number, number]> = {};
  best.forEach((s, slot) => {
    if (!Number.isNaN(s)) out[slot] = [s, chunk[slot]];
  });
  return out;
}

describe('VectorSpace', () => {
  it('scores notes by their best chunk cosine, normalising stored and query vectors', () => {
    const s = new VectorSpace(3);
    s.add(1, [v(1, 0, 0), v(0, 2, 0)]);
    s.add(2, [v(0, 0, 5)]);
    expect(run(s, v(0, 3, 0))).toEqual({ 1: [1, 1], 2: [0, 0] });
  });

  it('gives ties to the lower chunk', () => {
    const s = new VectorSpace(2);
    s.add(1, [v(0, 1), v(1, 0), v(1, 0)]);
    expect(run(s, v(1, 0))[1]).toEqual([1, 1]);
  });

  it('skips slots not allowed and removed notes, and reuses their rows', () => {
    const s = new VectorSpace(2);
    s.add(1, [v(1, 0)]);
    s.add(2, [v(0, 1)]);
    const mask = new Uint8Array(4);
    mask[2] = 1;
    expect(Object.keys(run(s, v(1, 1), mask))).toEqual(['2']);
    s.remove(1);
    expect(Object.keys(run(s, v(1, 0)))).toEqual(['2']);
    s.add(3, [v(1, 0)]);
    expect(run(s, v(1, 0))[3][0]).toBeCloseTo(1);
    expect(s.noteCount()).toBe(2);
  });

  it('grows past its initial capacity without losing vectors', () => {
    const s = new VectorSpace(4);
    for (let i = 1; i <= 1000; i++) s.add(i, [v(i, 1, 0, 0)]);
    const r = run(s, v(1, 0, 0, 0));
    expect(Object.keys(r)).toHaveLength(1000);
    expect(r[1000][0]).toBeCloseTo(1, 5);
  });

  it('scores a zero vector 0 and rejects a query of the wrong size or a bad slot', () => {
    const s = new VectorSpace(2);
    s.add(1, [v(0, 0)]);
    expect(run(s, v(1, 0))[1][0]).toBe(0);
    expect(() => run(s, v(1, 0, 0))).toThrow(LithosError);
    expect(() => s.add(0, [v(1, 0)])).toThrow(LithosError);
    expect(() => s.add(5, [v(1, 0, 0)])).toThrow(LithosError);
  });
});

describe('VectorStore', () => {
  it('keeps spaces apart and creates a space from its first vectors', () => {
    const st = new VectorStore();
    st.set(1, new Map([['s2', [v(1, 0)]], ['s3', [v(0, 0, 1)]]]));
    expect(st.spaceIds()).toEqual(['s2', 's3']);
    expect(st.space('s3')!.dims).toBe(3);
    st.set(1, new Map([['s2', [v(0, 1)]]])); // replaces: gone from s3
    expect(st.space('s3')!.noteCount()).toBe(0);
    st.remove(1);
    expect(st.space('s2')!.noteCount()).toBe(0);
  });

  it('validates counts and sizes before storing anything', () => {
    const st = new VectorStore();
    st.set(1, new Map([['s', [v(1, 0)]]]));
    expect(() => st.validate('b', 2, new Map([['s', [v(1, 0)]]]))).toThrow(/2 chunks but 1 vectors/);
    expect(() => st.validate('b', 1, new Map([['s', [v(1, 0, 0)]]]))).toThrow(LithosError);
    expect(() => st.validate('b', 1, new Map([['s', [[1, 0] as unknown as Float32Array]]]))).toThrow(LithosError);
    const seen = new Map<string, number>();
    st.validate('c', 1, new Map([['new', [v(1, 2, 3)]]]), seen);
    expect(() => st.validate('d', 1, new Map([['new', [v(1, 2)]]]), seen)).toThrow(LithosError);
  });
});
