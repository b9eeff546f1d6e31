import { bytesToVector, storedForm, vectorToBytes } from '../../shared/stores/vector-bytes';

describe('stored vector form', () => {
  it('is a quarter of float32 size plus an 8-byte header', () => {
    expect(vectorToBytes(new Float32Array(384).fill(0.05)).byteLength).toBe(392);
  });

  it('keeps every component within half a quantisation step and cosine within 1e-3', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    for (let t = 0; t < 50; t++) {
      const v = Float32Array.from({ length: 384 }, rnd);
      const back = storedForm(v);
      const max = Math.max(...v.map(Math.abs));
      let dot = 0, a = 0, b = 0;
      for (let i = 0; i < v.length; i++) {
        expect(Math.abs(back[i] - v[i])).toBeLessThanOrEqual(max / 254 + 1e-7);
        dot += v[i] * back[i];
        a += v[i] * v[i];
        b += back[i] * back[i];
      }
      expect(dot / Math.sqrt(a * b)).toBeGreaterThan(0.999);
    }
  });

  it('is a fixed point: storing the stored form changes nothing', () => {
    const once = storedForm(Float32Array.from([0.3, -0.7, 0.01, 0]));
    expect([...storedForm(once)]).toEqual([...once]);
  });

  it('still reads plain float32 blobs and refuses blobs of neither form', () => {
    const f = Float32Array.from([0.25, -1.5]);
    expect([...bytesToVector(new Uint8Array(f.buffer))]).toEqual([0.25, -1.5]);
    expect(() => bytesToVector(new Uint8Array([1, 2, 3]))).toThrow(/neither/);
  });

  it('zero vectors survive', () => {
    expect([...storedForm(new Float32Array(4))]).toEqual([0, 0, 0, 0]);
  });
});
