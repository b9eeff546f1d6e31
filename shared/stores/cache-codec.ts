import { ByteReader, ByteWriter, MalformedBytes } from './byte-io';
import { CacheTables, GLOBAL, shardOf, type StoredNote, type NodeChunks, type SpaceRow, type StoredTermBag, type VectorRows } from './cache-tables';
import { checksum } from './checksum';

export { checksum } from './checksum';
export { ByteWriter } from './byte-io';

/**
 * The cache files: `cache.bin` holds the embedding spaces and the term dictionary, and `cache.<k>.bin`
 * (k = 0…f) each hold the note rows, chunks, vectors and term bags of the node ids in shard k (shardOf). A
 * snapshot rewrites only the files whose part changed: one edited note costs one ~1/16 shard, not the
 * whole cache (at 10k notes 5 MB instead of 87 MB, in time and in the snapshot's transient memory). Each
 * part is self-contained, so a crash between two files' writes leaves every file sound.
 *
 * Layout of each file (little-endian): 8-byte magic, u32 format version, u32 body length, u32 checksum
 * of the body, u32 zero, then the body: spaces, term dictionary, notes, chunks, vectors, term bags (see
 * encodeCachePart; sections a part does not hold are empty). The checksum is the integrity check: a torn
 * or altered file fails it and is set aside.
 *
 * Typed arrays (chunk texts and bounds, vectors, term bags) start on 4-byte boundaries and are read as views
 * of the file's bytes, not copies: the read buffers become the store's memory rather than transients
 * beside the copies.
 */
export const CACHE_FILE = 'cache.bin';
/** The sql.js cache of earlier versions: never read (it is rebuilt), removed once the cache is written. */
export const LEGACY_CACHE_FILE = 'cache.sqlite';
/** 1 was cache.sqlite's schema; 2 one cache.bin; 3 aligned for views; 4 sharded. Older files are rebuilt, newer set aside. */
export const CACHE_FORMAT_VERSION = 4;

/** The file of a part: GLOBAL or a shard number. */
export function cachePartFile(part: number): string {
  return part === GLOBAL ? CACHE_FILE : `cache.${part.toString(16)}.bin`;
}

const MAGIC = [0x4c, 0x49, 0x54, 0x48, 0x43, 0x41, 0x43, 0x48]; // "LITHCACH"
const HEADER = 24;
const STATUS = ['active', 'retired'] as const;

export type DecodeResult =
  | { ok: true; parts: CacheParts }
  /** `older`: a sound file of an earlier format, to be rebuilt without alarm. */
  | { ok: false; reason: string; older: boolean };

/** The records of each of `parts` (GLOBAL or shard numbers), in one pass over the tables. */
export function splitCacheParts(t: CacheTables, parts: Iterable<number>): Map<number, CacheParts> {
  const steps = splitSteps(takeCacheRecords(t), parts);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * The same, giving the host a turn (`breathe`) every few thousand records: at 10k notes the split held the
 * event loop 35-60 ms. The tables are copied first, synchronously, so the parts describe one moment.
 */
export async function splitCachePartsInSlices(t: CacheTables, parts: Iterable<number>, breathe: () => Promise<void>): Promise<Map<number, CacheParts>> {
  const steps = splitSteps(takeCacheRecords(t), parts);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await breathe();
  }
}

/** Records per slice of splitCachePartsInSlices (a few ms of work). */
const SPLIT_SLICE = 2500;

/**
 * Every record of the tables as they are now (a few ms at 10k notes): shallow copies suffice because
 * the tables replace records on change and never edit one in place; only the per-node maps of vectors
 * change in place, so they are flattened.
 */
function takeCacheRecords(t: CacheTables): CacheParts {
  const vectors: [string, string, VectorRows][] = [];
  for (const [nodeId, bySpace] of t.vectors) for (const [spaceId, v] of bySpace) vectors.push([nodeId, spaceId, v]);
  return { spaces: [...t.spaces], terms: t.terms.slice(), notes: [...t.notes.values()], chunks: [...t.chunks], vectors, bags: [...t.bags.values()] };
}

/** Sorts `all` into `parts`, pausing (yield) after every SPLIT_SLICE records. */
function* splitSteps(all: CacheParts, parts: Iterable<number>): Generator<void, Map<number, CacheParts>> {
  const out = new Map<number, CacheParts>();
  for (const part of parts) {
    out.set(part, { spaces: part === GLOBAL ? all.spaces : [], terms: part === GLOBAL ? all.terms : [], notes: [], chunks: [], vectors: [], bags: [] });
  }
  const of = (nodeId: string) => out.get(shardOf(nodeId));
  let n = 0;
  for (const r of all.notes) {
    of(r.node_id)?.notes.push(r);
    if (++n % SPLIT_SLICE === 0) yield;
  }
  for (const r of all.chunks) {
    of(r[0])?.chunks.push(r);
    if (++n % SPLIT_SLICE === 0) yield;
  }
  for (const r of all.vectors) {
    of(r[0])?.vectors.push(r);
    if (++n % SPLIT_SLICE === 0) yield;
  }
  for (const r of all.bags) {
    of(r.node_id)?.bags.push(r);
    if (++n % SPLIT_SLICE === 0) yield;
  }
  return out;
}

export interface CacheParts {
  spaces: [string, SpaceRow][];
  terms: string[];
  notes: StoredNote[];
  chunks: [string, NodeChunks][];
  vectors: [string, string, VectorRows][];
  bags: StoredTermBag[];
}

/**
 * One file's bytes: the global part (GLOBAL) or one shard, from the tables or from that part's records
 * (splitCacheParts). With `writer`, its buffer is reused (the bytes returned are a view of it, valid until
 * its next use): a snapshot of many parts then allocates once.
 */
export function encodeCachePart(tables: CacheTables | CacheParts, part: number, writer?: ByteWriter): Uint8Array {
  const t = tables instanceof CacheTables ? splitCacheParts(tables, [part]).get(part)! : tables;
  // Sized up front (exact for ASCII text): growing by doubling would briefly hold ~3x the file in memory.
  const hint = encodedSizeHint(t);
  const w = writer ?? new ByteWriter(hint);
  w.reset(hint);
  for (const b of MAGIC) w.u8(b);
  w.u32(CACHE_FORMAT_VERSION);
  w.u32(0); // body length, patched below
  w.u32(0); // checksum, patched below
  w.u32(0);

  w.u32(t.spaces.length);
  for (const [id, s] of t.spaces) {
    w.str(id);
    w.u32(s.dimensions);
    w.f64(s.createdAt);
    w.u8(STATUS.indexOf(s.status));
  }
  // Terms never hold a newline (CacheTerms refuses them), so the dictionary is one string.
  w.u32(t.terms.length);
  w.str(t.terms.join('\n'));

  w.u32(t.notes.length);
  for (const n of t.notes) {
    w.str(n.path);
    w.str(n.node_id);
    w.str(n.content_hash);
    w.f64(n.mtime);
    w.f64(n.size);
    w.f64(n.indexed_at);
    // The layout of str(): a u32 count and the UTF-8 bytes (meta is held as those bytes already).
    w.u32(n.meta.byteLength);
    w.raw(n.meta);
  }
  w.u32(t.chunks.length);
  for (const [nodeId, c] of t.chunks) {
    w.str(nodeId);
    w.u32(c.indexes.length);
    w.align(4);
    w.raw(c.indexes);
    w.raw(c.ends);
    for (const h of c.headings) {
      w.u8(h === null ? 0 : 1);
      if (h !== null) w.str(h);
    }
    w.u32(c.bytes.byteLength);
    w.raw(c.bytes);
  }
  w.u32(t.vectors.length);
  for (const [nodeId, spaceId, v] of t.vectors) {
    w.str(nodeId);
    w.str(spaceId);
    w.str(v.contentHash);
    w.u32(v.dims);
    w.u32(v.count);
    w.align(4);
    w.raw(v.steps);
    w.raw(v.values);
  }
  w.u32(t.bags.length);
  for (const b of t.bags) {
    w.str(b.node_id);
    w.str(b.lexHash);
    w.f64(b.length);
    w.u32(b.ids.length);
    w.align(4);
    w.raw(b.ids);
    w.raw(b.tfs);
  }

  const bytes = w.bytes();
  w.u32At(12, bytes.byteLength - HEADER);
  w.u32At(16, checksum(bytes, HEADER));
  return bytes;
}

/** The file's size if every string is ASCII (each other character adds at most 2 bytes, and the writer grows). */
function encodedSizeHint(t: CacheParts): number {
  let n = HEADER + 64 + t.terms.length * 12;
  for (const [id] of t.spaces) n += 17 + id.length;
  for (const x of t.notes) n += 40 + x.path.length + x.node_id.length + x.content_hash.length + x.meta.byteLength;
  for (const [nodeId, c] of t.chunks) {
    n += 15 + nodeId.length + c.indexes.byteLength + c.ends.byteLength + c.bytes.byteLength;
    for (const h of c.headings) n += 5 + (h?.length ?? 0);
  }
  for (const [nodeId, spaceId, v] of t.vectors) n += 23 + nodeId.length + spaceId.length + v.contentHash.length + v.steps.byteLength + v.values.byteLength;
  for (const b of t.bags) n += 23 + b.node_id.length + b.lexHash.length + b.ids.byteLength + b.tfs.byteLength;
  return Math.ceil(n * 1.02) + 1024;
}

/** Decodes one cache file into its records (add them to the tables with mergeCacheParts). */
export function decodeCache(bytes: Uint8Array): DecodeResult {
  const fail = (reason: string, older = false): DecodeResult => ({ ok: false, reason, older });
  if (bytes.byteLength === 0) return fail('file is empty');
  if (bytes.byteLength < HEADER || MAGIC.some((b, i) => bytes[i] !== b)) return fail('not a Lithos cache file');
  const head = new ByteReader(bytes, MAGIC.length);
  const version = head.u32();
  const bodyLength = head.u32();
  const sum = head.u32();
  if (version > CACHE_FORMAT_VERSION) return fail(`written by a newer Lithos (cache format ${version}, this build reads ${CACHE_FORMAT_VERSION})`);
  if (version < CACHE_FORMAT_VERSION) return fail(`cache format ${version} is older than this build's ${CACHE_FORMAT_VERSION}`, true);
  if (bodyLength !== bytes.byteLength - HEADER) return fail(`truncated or padded (${bytes.byteLength - HEADER} body bytes, ${bodyLength} expected)`);
  if (checksum(bytes, HEADER) !== sum) return fail('checksum mismatch');
  try {
    return { ok: true, parts: readBody(new ByteReader(bytes, HEADER)) };
  } catch (err) {
    if (err instanceof MalformedBytes || err instanceof RangeError) return fail(err.message);
    throw err;
  }
}

function readBody(r: ByteReader): CacheParts {
  const t: CacheParts = { spaces: [], terms: [], notes: [], chunks: [], vectors: [], bags: [] };
  for (let i = r.u32(); i > 0; i--) {
    const id = r.str();
    const dimensions = r.u32();
    const createdAt = r.f64();
    const status = STATUS[r.u8()];
    if (!status) throw new MalformedBytes('unknown space status');
    t.spaces.push([id, { dimensions, createdAt, status }]);
  }
  const termCount = r.u32();
  const terms = r.str();
  if (termCount > 0) t.terms = terms.split('\n');
  if (t.terms.length !== termCount) throw new MalformedBytes('term dictionary size mismatch');

  for (let i = r.u32(); i > 0; i--) {
    const path = r.str();
    const node_id = r.str();
    const content_hash = r.str();
    const mtime = r.f64();
    const size = r.f64();
    const indexed_at = r.f64();
    // A view of the file's bytes, not a decoded string (StoredNote).
    const meta = r.array(Uint8Array, r.u32());
    t.notes.push({ path, node_id, content_hash, mtime, size, meta, indexed_at });
  }
  for (let i = r.u32(); i > 0; i--) {
    const nodeId = r.str();
    const n = r.u32();
    r.align(4);
    const indexes = r.array(Uint32Array, n);
    const ends = r.array(Uint32Array, n);
    const headings: (string | null)[] = [];
    for (let c = 0; c < n; c++) headings.push(r.u8() === 1 ? r.str() : null);
    const bytes = r.array(Uint8Array, r.u32());
    for (let c = 0; c < n; c++) {
      if (ends[c] < (c > 0 ? ends[c - 1] : 0) || (c > 0 && indexes[c] <= indexes[c - 1])) throw new MalformedBytes('chunks out of order');
    }
    if (n === 0 || ends[n - 1] !== bytes.byteLength) throw new MalformedBytes('chunk texts do not fill their bytes');
    t.chunks.push([nodeId, { indexes, headings, ends, bytes }]);
  }
  for (let i = r.u32(); i > 0; i--) {
    const nodeId = r.str();
    const spaceId = r.str();
    const contentHash = r.str();
    const dims = r.u32();
    const count = r.u32();
    if (dims === 0 || count === 0) throw new MalformedBytes('an empty vector entry');
    r.align(4);
    const steps = r.array(Float32Array, count);
    const values = r.array(Int8Array, count * dims);
    t.vectors.push([nodeId, spaceId, { contentHash, dims, count, steps, values }]);
  }
  for (let i = r.u32(); i > 0; i--) {
    const node_id = r.str();
    const lexHash = r.str();
    const length = r.f64();
    const n = r.u32();
    r.align(4);
    const ids = r.array(Uint32Array, n);
    const tfs = r.array(Uint16Array, n);
    t.bags.push({ node_id, lexHash, length, ids, tfs });
  }
  if (r.remaining !== 0) throw new MalformedBytes('unexpected bytes after the last table');
  return t;
}

/**
 * Adds the records of one decoded file (of `part`) to `into`, which is being loaded (no undo, nothing
 * marked dirty). A path found in two shards (a note renamed onto another's path just before a crash kept
 * one file from being rewritten) keeps the row indexed last.
 */
export function mergeCacheParts(into: CacheTables, from: CacheParts, part: number): void {
  into.absorb(part === GLOBAL ? { ...from, notes: [], chunks: [], vectors: [], bags: [] } : { ...from, spaces: [], terms: [] });
}
