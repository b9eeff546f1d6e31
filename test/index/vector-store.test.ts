import { LithosError } from '../../shared/errors';
import { VectorSpace, VectorStore } from '../../shared/index/vector-store';
import { quantise, storedForm } from '../../shared/stores/vector-bytes';

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

describe('VectorSpace: vectors in the cache\'s stored form', () => {
  /** Deterministic pseudo-random vectors, like an embedder's. */
  const rand = (seed: number, dims: number) => Float32Array.from({ length: dims }, (_, i) => Math.sin(seed * 97.13 + i * 12.9898) * ((i % 7) - 3));

  it('are held as int8 steps and score as the Float32 rows would, to float rounding', () => {
    const int8 = new VectorSpace(64);
    const float = new VectorSpace(64);
    for (let slot = 1; slot <= 40; slot++) {
      const vs = [storedForm(rand(slot, 64)), storedForm(rand(slot + 100, 64))];
      int8.add(slot, vs);
      float.add(slot, vs);
    }
    float.add(999, [v(...new Array<number>(64).fill(0).map((_, i) => (i === 0 ? 1 : i === 1 ? 0.5 : 0)))]); // not stored form: turns `float` into Float32 rows
    float.remove(999);
    expect(int8.quantised()).toBe(true);
    expect(float.quantised()).toBe(false);
    for (const q of [rand(7, 64), v(...new Array<number>(64).fill(0).map((_, i) => (i % 9 === 0 ? 1 : 0)))]) {
      const a = run(int8, q);
      const b = run(float, q);
      expect(Object.keys(a)).toEqual(Object.keys(b));
      for (const slot of Object.keys(b)) {
        expect(a[+slot][1]).toBe(b[+slot][1]);
        expect(Math.abs(a[+slot][0] - b[+slot][0])).toBeLessThan(1e-6);
      }
      const ma = int8.meanOf(3)!;
      const mb = float.meanOf(3)!;
      for (let i = 0; i < 64; i++) expect(Math.abs(ma[i] - mb[i])).toBeLessThan(1e-6);
    }
  });

  it('an exact unit match still scores exactly 1, and a zero vector 0', () => {
    const s = new VectorSpace(3);
    s.add(1, [storedForm(v(0, 0.6, 0.8)), storedForm(v(0, 0, 0))]);
    expect(s.quantised()).toBe(true);
    expect(run(s, v(0, 2, 0))[1]).toEqual([expect.closeTo(0.6, 2), 0]);
    s.add(2, [storedForm(v(0, 0, 3))]);
    expect(run(s, v(0, 0, 1))[2]).toEqual([1, 0]);
  });

  it('packed vectors (the cache\'s int8 form) score exactly as their decoded stored form, in either kind of space', () => {
    const list = [rand(1, 16), rand(2, 16), rand(3, 16)];
    const pack = (vs: Float32Array[]) => {
      const steps = new Float32Array(vs.length);
      const values = new Int8Array(vs.length * 16);
      vs.forEach((x, i) => (steps[i] = quantise(x, values.subarray(i * 16, (i + 1) * 16)).step));
      return { dims: 16, count: vs.length, steps, values };
    };
    const decoded = new VectorSpace(16);
    decoded.add(1, list.map(storedForm));
    const packed = new VectorSpace(16);
    packed.addPacked(1, pack(list));
    const q = rand(9, 16);
    expect(run(packed, q)).toEqual(run(decoded, q));
    expect(packed.quantised()).toBe(true);

    const floatDecoded = new VectorSpace(16);
    floatDecoded.add(2, [v(...new Array<number>(16).fill(0.1).map((x, i) => x * (i + 1.5)))]);
    floatDecoded.add(1, list.map(storedForm));
    const floatPacked = new VectorSpace(16);
    floatPacked.add(2, [v(...new Array<number>(16).fill(0.1).map((x, i) => x * (i + 1.5)))]);
    floatPacked.addPacked(1, pack(list));
    expect(floatPacked.quantised()).toBe(false);
    expect(run(floatPacked, q)).toEqual(run(floatDecoded, q));
  });

  it('packed vectors are kept by reference, removed with their note, and survive a later conversion to Float32 exactly', () => {
    const pack = (vs: Float32Array[]) => {
      const steps = new Float32Array(vs.length);
      const values = new Int8Array(vs.length * 16);
      vs.forEach((x, i) => (steps[i] = quantise(x, values.subarray(i * 16, (i + 1) * 16)).step));
      return { dims: 16, count: vs.length, steps, values };
    };
    const odd = v(...new Array<number>(16).fill(0.1).map((x, i) => x * (i + 1.5)));
    const s = new VectorSpace(16);
    s.addPacked(1, pack([rand(1, 16), rand(2, 16)]));
    s.addPacked(2, pack([rand(3, 16)]));
    expect(s.noteCount()).toBe(2);
    const reference = new VectorSpace(16);
    reference.add(1, [rand(1, 16), rand(2, 16)].map(storedForm));
    reference.add(2, [storedForm(rand(3, 16))]);
    const q = rand(9, 16);
    expect(run(s, q)).toEqual(run(reference, q));
    expect(s.meanOf(1)).toEqual(reference.meanOf(1));

    s.add(3, [odd]); // not of the stored form: everything becomes unit Float32 rows
    reference.add(3, [odd]);
    expect(s.quantised()).toBe(false);
    expect(reference.quantised()).toBe(false);
    expect(run(s, q)).toEqual(run(reference, q));
    s.remove(2);
    expect(s.noteCount()).toBe(2);
    expect(Object.keys(run(s, q))).toEqual(['1', '3']);
  });

  it('a vector of any other form converts the space, keeping the rows already stored', () => {
    const s = new VectorSpace(4);
    s.add(1, [storedForm(v(1, 2, 3, 4))]);
    s.add(2, [v(0.1, 0.2, 0.3, 0.40001)]);
    expect(s.quantised()).toBe(false);
    const r = run(s, storedForm(v(1, 2, 3, 4)));
    expect(r[1][0]).toBeCloseTo(1, 6);
    expect(r[2][0]).toBeCloseTo(1, 4);
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

  it('validates packed vectors against the chunk count and the space before storing anything', () => {
    const st = new VectorStore();
    const p = (count: number, dims: number) => ({ dims, count, steps: new Float32Array(count).fill(0.01), values: new Int8Array(count * dims).fill(3) });
    st.set(1, new Map(), new Map([['s', p(2, 4)]]));
    expect(st.space('s')!.noteCount()).toBe(1);
    expect(() => st.validate('b', 3, new Map(), undefined, new Map([['s', p(2, 4)]]))).toThrow(/do not fit its 3 chunks/);
    expect(() => st.validate('b', 2, new Map(), undefined, new Map([['s', p(2, 5)]]))).toThrow(LithosError);
    expect(() => st.validate('b', 2, new Map(), undefined, new Map([['s', { ...p(2, 4), values: new Int8Array(7) }]]))).toThrow(LithosError);
    expect(() => st.validate('b', 1, new Map([['s', [v(1, 0, 0, 0)]]]), undefined, new Map([['s', p(1, 4)]]))).toThrow(LithosError);
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
