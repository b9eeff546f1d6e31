/**
 * Vectors as the cache stores them: int8-quantised with one float32 scale (step) per vector, a quarter of
 * the float32 size. The cache keeps a note's steps and int8 values in two arrays (cache-vectors.ts) and
 * the search index scores those int8 values in place; `vectorToBytes` is the same form as one blob
 * ('Q8' magic, 2 zero bytes, scale as float32 LE, one int8 per dimension). Cosine rankings move by ~1e-3
 * at most; the indexer puts the decoded form in the search index even for fresh vectors (`storedForm`),
 * so a warm start and a fresh index score identically. Plain float32 blobs (the first format) are still read.
 */

const MAGIC0 = 0x51; // 'Q'
const MAGIC1 = 0x38; // '8'
const HEADER = 8;

/** A vector's int8 steps and the float32 step size they multiply (max|v| / 127; 1 for a zero vector). */
export function quantise(v: Float32Array, q: Int8Array = new Int8Array(v.length)): { step: number; q: Int8Array } {
  let max = 0;
  for (let i = 0; i < v.length; i++) {
    const a = Math.abs(v[i]);
    if (a > max) max = a;
  }
  const scale = max > 0 ? max / 127 : 1;
  for (let i = 0; i < v.length; i++) q[i] = Math.round(v[i] / scale);
  return { step: Math.fround(scale), q };
}

export function vectorToBytes(v: Float32Array): Uint8Array {
  const out = new Uint8Array(HEADER + v.length);
  out[0] = MAGIC0;
  out[1] = MAGIC1;
  const { step } = quantise(v, new Int8Array(out.buffer, HEADER));
  new DataView(out.buffer).setFloat32(4, step, true);
  return out;
}

export function bytesToVector(b: Uint8Array): Float32Array {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.byteLength >= HEADER && b[0] === MAGIC0 && b[1] === MAGIC1 && b[2] === 0 && b[3] === 0) {
    const scale = view.getFloat32(4, true);
    const q = new Int8Array(b.buffer, b.byteOffset + HEADER, b.byteLength - HEADER);
    const out = new Float32Array(q.length);
    for (let i = 0; i < out.length; i++) out[i] = q[i] * scale;
    return out;
  }
  if (b.byteLength % 4 !== 0) throw new Error(`vector blob of ${b.byteLength} bytes is neither int8-quantised nor whole float32s`);
  const out = new Float32Array(b.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** The vector exactly as it will read back from the store. */
export function storedForm(v: Float32Array): Float32Array {
  return bytesToVector(vectorToBytes(v));
}
