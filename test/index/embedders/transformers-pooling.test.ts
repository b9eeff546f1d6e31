import { LithosError } from '../../../shared/errors';
import { meanPoolNormalize } from '../../../shared/index/embedders/transformers-pooling';

describe('meanPoolNormalize', () => {
  it('averages the unmasked tokens of each row and scales to unit length', () => {
    // batch 2, seq 3, dims 2; row 1's last token is padding and must not count.
    const hidden = { dims: [2, 3, 2], data: Float32Array.from([1, 0, 3, 0, 5, 4, 0, 2, 0, 4, 100, 100]) };
    const mask = { dims: [2, 3], data: BigInt64Array.from([1n, 1n, 1n, 1n, 1n, 0n]) };
    const [a, b] = meanPoolNormalize(hidden, mask);
    // row 0 mean = (3, 4/3) → normalised; row 1 mean = (0, 3) → (0, 1)
    const n = Math.hypot(3, 4 / 3);
    expect(a[0]).toBeCloseTo(3 / n, 6);
    expect(a[1]).toBeCloseTo(4 / 3 / n, 6);
    expect(Array.from(b)).toEqual([0, 1]);
    expect(a).toBeInstanceOf(Float32Array);
  });

  it('leaves an all-zero mean as zeros rather than dividing by zero', () => {
    const [v] = meanPoolNormalize({ dims: [1, 2, 3], data: new Float32Array(6) }, { dims: [1, 2], data: [1, 1] });
    expect(Array.from(v)).toEqual([0, 0, 0]);
  });

  it('rejects outputs whose shape does not match the attention mask', () => {
    const run = () => meanPoolNormalize({ dims: [1, 4, 2], data: new Float32Array(8) }, { dims: [1, 3], data: [1, 1, 1] });
    expect(run).toThrow(LithosError);
    expect(run).toThrow(/shape/);
  });

  it('rejects non-float outputs', () => {
    const run = () => meanPoolNormalize({ dims: [1, 1, 2], data: BigInt64Array.from([1n, 2n]) }, { dims: [1, 1], data: [1] });
    expect(run).toThrow(/float tensor/);
  });
});
