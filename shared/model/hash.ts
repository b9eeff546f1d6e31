/**
 * Fast, synchronous, host-free content hash (two independent 32-bit FNV-1a style lanes → 16 hex chars).
 * Not cryptographic: it only answers "did this note change?".
 */
// Local alias: inside sandboxed contexts (jest's vm, some webviews) every global lookup in a hot loop is slow.
const imul = Math.imul;

export function contentHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = imul(h1 ^ c, 0x01000193);
    h2 = imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  h1 ^= h1 >>> 13;
  h1 = imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
