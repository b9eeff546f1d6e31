/** Float32 vectors as little-endian bytes, the on-disk form in cache.sqlite on every host. */

const HOST_LE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function vectorToBytes(v: Float32Array): Uint8Array {
  if (HOST_LE) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const out = new Uint8Array(v.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i], true);
  return out;
}

/**
 * Decodes a blob. When `b` spans its whole buffer (as the fresh arrays sql.js returns do) the vector
 * shares that buffer instead of copying it, so callers must not reuse `b` afterwards.
 */
export function bytesToVector(b: Uint8Array): Float32Array {
  if (b.byteLength % 4 !== 0) throw new Error(`vector blob of ${b.byteLength} bytes is not whole float32s`);
  if (HOST_LE) {
    const owned = b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : b.slice();
    return new Float32Array(owned.buffer, 0, owned.byteLength / 4);
  }
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = new Float32Array(b.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
