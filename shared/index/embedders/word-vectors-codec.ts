import { LithosError } from '../../errors';
import type { WordVectors } from './word-vectors';

/**
 * A fit as bytes, for keeping it across restarts (a blob next to the cache, keyed by its space id): a JSON
 * header line, then the counts and the vectors as little-endian typed arrays. Decoding gives back the very
 * same Float32 vectors, so the notes' cached vectors and new query vectors stay comparable after a reopen.
 */
const MAGIC = 'lithos-word-vectors/1';

interface Header {
  magic: string;
  spaceId: string;
  dims: number;
  tokens: number;
  words: string[];
}

export function encodeWordVectors(spaceId: string, wv: WordVectors): Uint8Array {
  const header: Header = { magic: MAGIC, spaceId, dims: wv.dims, tokens: wv.tokens, words: wv.words };
  const head = new TextEncoder().encode(`${JSON.stringify(header)}\n`);
  const pad = (4 - (head.length % 4)) % 4; // typed arrays start on a 4-byte boundary
  const out = new Uint8Array(head.length + pad + wv.counts.byteLength + wv.vectors.byteLength);
  out.set(head);
  out.fill(0x20, head.length, head.length + pad);
  const view = new DataView(out.buffer);
  let at = head.length + pad;
  for (let i = 0; i < wv.counts.length; i++, at += 4) view.setInt32(at, wv.counts[i], true);
  for (let i = 0; i < wv.vectors.length; i++, at += 4) view.setFloat32(at, wv.vectors[i], true);
  return out;
}

/** The fit in `bytes`; throws `corrupt` when they are not one, or were written for another space. */
export function decodeWordVectors(bytes: Uint8Array, spaceId: string): WordVectors {
  const nl = bytes.indexOf(0x0a);
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, nl))) as Header;
  } catch {
    throw new LithosError('store_corrupt', 'The vault-learned word vectors are unreadable.', { space: spaceId });
  }
  if (nl < 0 || header.magic !== MAGIC || header.spaceId !== spaceId || !Array.isArray(header.words)) {
    throw new LithosError('store_corrupt', `The stored word vectors are not those of space ${spaceId}.`, { space: spaceId });
  }
  const n = header.words.length;
  let at = nl + 1;
  at += (4 - (at % 4)) % 4;
  if (bytes.length !== at + 4 * n + 4 * n * header.dims) {
    throw new LithosError('store_corrupt', 'The vault-learned word vectors are truncated.', { space: spaceId });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const counts = new Int32Array(n);
  for (let i = 0; i < n; i++, at += 4) counts[i] = view.getInt32(at, true);
  const vectors = new Float32Array(n * header.dims);
  for (let i = 0; i < vectors.length; i++, at += 4) vectors[i] = view.getFloat32(at, true);
  return { dims: header.dims, words: header.words, vectors, counts, tokens: header.tokens };
}
