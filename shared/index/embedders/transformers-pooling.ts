/**
 * Sentence-transformers pooling for all-MiniLM-L6-v2: mean of the token vectors that the
 * attention mask keeps (padding is ignored), then L2 normalisation.
 */
import { LithosError } from '../../errors';
import type { TensorLike } from './transformers-types';

/**
 * `hidden` is [batch, seq, dims] float; `mask` is [batch, seq] (0/1, number or bigint).
 * Returns one unit-length Float32Array per row; a row whose mean is all zeros stays zeros,
 * as torch.nn.functional.normalize leaves it.
 */
export function meanPoolNormalize(hidden: TensorLike, mask: TensorLike): Float32Array[] {
  const [batch, seq, dims] = hidden.dims;
  if (hidden.dims.length !== 3 || mask.dims.length !== 2 || mask.dims[0] !== batch || mask.dims[1] !== seq) {
    throw new LithosError('embedding_failed', `Unexpected model output shape [${hidden.dims}] for attention mask [${mask.dims}].`, {
      hidden: [...hidden.dims],
      mask: [...mask.dims],
    });
  }
  const h = hidden.data;
  if (h.length !== batch * seq * dims || (h.length > 0 && typeof h[0] !== 'number')) {
    throw new LithosError('embedding_failed', 'Model output is not a float tensor of the expected size.', { length: h.length });
  }
  const out: Float32Array[] = [];
  // Accumulate in float64 so long texts lose no precision before the final float32 vector.
  const sum = new Float64Array(dims);
  for (let b = 0; b < batch; b++) {
    sum.fill(0);
    let count = 0;
    for (let s = 0; s < seq; s++) {
      if (Number(mask.data[b * seq + s]) === 0) continue;
      count++;
      const base = (b * seq + s) * dims;
      for (let d = 0; d < dims; d++) sum[d] += h[base + d] as number;
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      sum[d] /= Math.max(count, 1);
      norm += sum[d] * sum[d];
    }
    norm = Math.sqrt(norm);
    const vec = new Float32Array(dims);
    if (norm > 0) for (let d = 0; d < dims; d++) vec[d] = sum[d] / norm;
    out.push(vec);
  }
  return out;
}
