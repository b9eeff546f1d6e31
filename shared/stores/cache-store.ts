import { LithosError } from '../errors';
import { DebouncedPersister, DEFAULT_DEBOUNCE_MS } from './debounced-persister';
import type { StoreDeps } from './journaled-store';
import { quarantineName } from './sqlite';
import { CacheTerms } from './cache-terms';
import { CacheTables, GLOBAL, SHARDS, type CachedChunk, type CachedNote, type NodeChunks, type StoredNote } from './cache-tables';
import { ByteWriter, CACHE_FILE, cachePartFile, decodeCache, encodeCachePart, LEGACY_CACHE_FILE, mergeCacheParts, splitCachePartsInSlices } from './cache-codec';
import { macrotask } from './yield-to-host';

export type { CachedChunk, CachedNote, NodeChunks, StoredNote, StoredTermBag } from './cache-tables';
export { CACHE_FILE } from './cache-codec';

/**
 * The cache: everything a fast restart needs and that can be rebuilt from the Markdown (parsed notes,
 * chunks, embedding vectors, BM25 term bags). Not journaled: a crash loses at most the changes since the
 * last snapshot, which the next reconcile re-derives. All methods are synchronous; snapshots are debounced.
 *
 * Held as JS maps and snapshotted as one binary file (cache-codec.ts) rather than in sql.js: a sql.js
 * database lives whole in memory beside the JS copies the engine needs anyway, is decoded row by row at
 * start and copied again by every export (at 10k notes: a 117 MB file, ~1.3 s of a 3.7 s warm start and
 * ~400 MB of a 690 MB peak). The engine only ever reads this data whole or by key, never by query.
 */
export class CacheStore extends CacheTerms {
  private readonly persister: DebouncedPersister;
  private closed = false;

  private constructor(tables: CacheTables, deps: StoreDeps, legacy: boolean) {
    super(tables, deps.clock, deps.logger);
    let removeLegacy = legacy;
    this.persister = new DebouncedPersister({
      timers: deps.timers,
      clock: deps.clock,
      logger: deps.logger,
      debounceMs: deps.debounceMs ?? DEFAULT_DEBOUNCE_MS,
      persist: async () => {
        // Each part is encoded just before it is written (one part's bytes in memory at a time); a part
        // changed meanwhile is marked dirty again and written by the next snapshot.
        const parts = [...this.tables.dirty].sort((a, b) => a - b);
        this.tables.dirty.clear();
        // Copied now (later changes mark parts dirty again), sorted into parts with turns for the host.
        const records = await splitCachePartsInSlices(this.tables, parts, macrotask);
        const writer = new ByteWriter(0); // one buffer for all parts: each is written before the next is encoded
        try {
          while (parts.length > 0) {
            await deps.blobs.writeAtomic(cachePartFile(parts[0]), encodeCachePart(records.get(parts[0])!, parts[0], writer));
            records.delete(parts[0]);
            parts.shift();
          }
        } finally {
          for (const p of parts) this.tables.dirty.add(p); // not written: still dirty for the retry
        }
        if (removeLegacy) {
          removeLegacy = false;
          await deps.blobs.remove(LEGACY_CACHE_FILE);
        }
      },
      label: CACHE_FILE,
    });
  }

  /**
   * `rebuilt` is true when the cache starts empty or partly so (absent, older or damaged files): the next
   * reconcile indexes from the Markdown whatever the cache does not hold.
   */
  static async open(deps: StoreDeps): Promise<{ store: CacheStore; warnings: string[]; rebuilt: boolean }> {
    const warnings: string[] = [];
    const legacy = (await deps.blobs.list(LEGACY_CACHE_FILE)).includes(LEGACY_CACHE_FILE);
    const tables = new CacheTables();
    let rebuilt = false;
    let older = false;
    for (const part of [GLOBAL, ...Array.from({ length: SHARDS }, (_, k) => k)]) {
      const file = cachePartFile(part);
      const bytes = await deps.blobs.read(file);
      if (bytes === null) {
        rebuilt = true;
        continue;
      }
      const decoded = decodeCache(bytes);
      if (decoded.ok) {
        mergeCacheParts(tables, decoded.parts, part);
        continue;
      }
      rebuilt = true;
      if (decoded.older) {
        older = true;
        continue;
      }
      const keptAs = await quarantineName(deps, file);
      await deps.blobs.writeAtomic(keptAs, bytes);
      await deps.blobs.remove(file);
      warnings.push(`${file} was damaged (${decoded.reason}); its notes will be re-indexed from the Markdown; the damaged file is kept as ${keptAs}.`);
    }
    if (older) deps.logger.info(`${CACHE_FILE}: written by an older Lithos; rebuilding the cache from the Markdown notes`);
    for (const w of warnings) deps.logger.warn(w);
    // A file read is the state on disk: only later changes need writing. A part that was missing or set
    // aside stays dirty, so the first snapshot writes every file.
    tables.dirty.clear();
    if (rebuilt) for (const part of [GLOBAL, ...Array.from({ length: SHARDS }, (_, k) => k)]) tables.dirty.add(part);
    // Term ids are only meaningful with the dictionary they were counted against: without it, bags go.
    if (tables.terms.length === 0) for (const id of [...tables.bags.keys()]) tables.setBag(id, undefined);
    return { store: new CacheStore(tables, deps, legacy), warnings, rebuilt };
  }

  /** Runs `fn` as one transaction: if it throws, none of its changes remain (nested calls roll back only their own). */
  transaction<T>(fn: () => T): T {
    this.assertOpen();
    return this.tables.transaction(fn);
  }

  // ── notes and chunks ────────────────────────────────────────────────────

  note(path: string): CachedNote | null {
    const n = this.tables.notes.get(path);
    return n ? { ...n, meta: utf8Decoder.decode(n.meta) } : null;
  }

  /** Every note, ordered by path. */
  allNotes(): CachedNote[] {
    return this.noteRows().map((n) => ({ ...n, meta: utf8Decoder.decode(n.meta) }));
  }

  /** A note's row with its meta still UTF-8 (never to be modified), for callers that decode only what they need. */
  noteRow(path: string): Readonly<StoredNote> | null {
    return this.tables.notes.get(path) ?? null;
  }

  /** Every note row, ordered by path, meta still UTF-8 (see noteRow). */
  noteRows(): Readonly<StoredNote>[] {
    return [...this.tables.notes.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * Stores a note and replaces its node's chunks. When the path held another node id that no other
   * note uses, that node's chunks and vectors go too.
   */
  putNote(n: CachedNote, chunks: CachedChunk[]): void {
    this.assertOpen();
    if (!n.path || !n.node_id) throw new LithosError('invalid_argument', 'A cached note needs a path and a node_id.', { path: n.path });
    if (typeof n.content_hash !== 'string' || typeof n.meta !== 'string' || !Number.isFinite(n.mtime) || !Number.isFinite(n.size)) {
      throw new LithosError('invalid_argument', 'A cached note needs a string content_hash and meta and finite mtime and size.', { path: n.path });
    }
    for (const c of chunks) {
      if (c.node_id !== n.node_id) {
        throw new LithosError('invalid_argument', `Chunk of node ${c.node_id} given for note ${n.node_id}.`, { path: n.path });
      }
      if (typeof c.text !== 'string' || !Number.isInteger(c.chunk_index) || c.chunk_index < 0) {
        throw new LithosError('invalid_argument', 'A chunk needs text and a non-negative integer chunk_index.', { path: n.path });
      }
    }
    const packed = packChunks(chunks);
    const t = this.tables;
    t.transaction(() => {
      const prev = t.notes.get(n.path);
      t.setNote(n.path, {
        path: n.path, node_id: n.node_id, content_hash: n.content_hash, mtime: n.mtime, size: n.size, meta: utf8Encoder.encode(n.meta), indexed_at: Number(n.indexed_at),
      });
      if (prev && prev.node_id !== n.node_id && !t.nodeHasNote(prev.node_id)) this.dropNode(prev.node_id, true);
      t.setChunks(n.node_id, packed);
      // A stored bag always describes the note as last stored (TermBagSync relies on it): the indexer
      // stores the new bag once the index holds the new version.
      t.setBag(n.node_id, undefined);
    });
    this.changed();
  }

  /**
   * Drops a note and its chunks. Its vectors stay (a rename seen as delete + create must not re-embed);
   * drop them with removeVectors, or pruneOrphans after a reconcile.
   */
  removeNote(path: string): void {
    this.assertOpen();
    const t = this.tables;
    const prev = t.notes.get(path);
    if (!prev) return;
    t.transaction(() => {
      t.setNote(path, undefined);
      if (!t.nodeHasNote(prev.node_id)) this.dropNode(prev.node_id, false);
    });
    this.changed();
  }

  /** Moves a note's row to a new path (chunks and vectors are keyed by node id and stay). No-op if absent. */
  renameNote(from: string, to: string): void {
    this.assertOpen();
    const t = this.tables;
    const moving = t.notes.get(from);
    if (from === to || !moving) return;
    t.transaction(() => {
      const displaced = t.notes.get(to);
      t.setNote(to, undefined);
      t.setNote(from, undefined);
      t.setNote(to, { ...moving, path: to });
      if (displaced && !t.nodeHasNote(displaced.node_id)) this.dropNode(displaced.node_id, false);
    });
    this.changed();
  }

  chunks(nodeId: string): CachedChunk[] {
    const c = this.tables.chunks.get(nodeId);
    if (!c) return [];
    return [...c.indexes].map((chunk_index, i) => ({
      node_id: nodeId,
      chunk_index,
      text: utf8Decoder.decode(c.bytes.subarray(i > 0 ? c.ends[i - 1] : 0, c.ends[i])),
      heading: c.headings[i],
    }));
  }

  /**
   * A node's chunks with their texts still UTF-8 (see NodeChunks), for a caller that reads few of them
   * (the warm start). The arrays are the store's own: read them, never change them.
   */
  chunkTexts(nodeId: string): Readonly<NodeChunks> | null {
    return this.tables.chunks.get(nodeId) ?? null;
  }

  /** Every chunk, ordered by node id then index. */
  *allChunks(): Iterable<CachedChunk> {
    for (const nodeId of [...this.tables.chunks.keys()].sort()) yield* this.chunks(nodeId);
  }

  /** Deletes chunks, vectors and term bags whose node id no note references any more. */
  pruneOrphans(): { chunks: number; vectors: number } {
    this.assertOpen();
    const t = this.tables;
    const out = t.transaction(() => {
      let chunks = 0;
      for (const [nodeId, c] of [...t.chunks]) {
        if (t.nodeHasNote(nodeId)) continue;
        chunks += c.indexes.length;
        t.setChunks(nodeId, undefined);
      }
      return { chunks, vectors: this.pruneVectors(), bags: this.pruneTermBags() };
    });
    if (out.chunks || out.vectors || out.bags) this.changed();
    return { chunks: out.chunks, vectors: out.vectors };
  }

  counts(): { notes: number; chunks: number; vectors: number; spaces: number } {
    let chunks = 0;
    for (const c of this.tables.chunks.values()) chunks += c.indexes.length;
    let vectors = 0;
    for (const bySpace of this.tables.vectors.values()) for (const v of bySpace.values()) vectors += v.count;
    return { notes: this.tables.notes.size, chunks, vectors, spaces: this.tables.spaces.size };
  }

  /** Writes the snapshot now. */
  async flush(): Promise<void> {
    this.assertOpen();
    await this.persister.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.persister.dispose();
    this.closed = true;
    this.tables = new CacheTables(); // let the data go even if a caller keeps the store object
  }

  protected override assertOpen(): void {
    if (this.closed) throw new LithosError('internal', 'The cache store is closed.');
  }

  protected override changed(): void {
    this.persister.markDirty();
  }

  /** A node no note references any more: its chunks go, and its vectors too when the path was taken over. */
  private dropNode(nodeId: string, withVectors: boolean): void {
    this.tables.setChunks(nodeId, undefined);
    if (!withVectors) return;
    for (const spaceId of [...(this.tables.vectors.get(nodeId)?.keys() ?? [])]) this.tables.setVectors(nodeId, spaceId, undefined);
  }
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Chunks in index order, texts as UTF-8 back to back (a repeated index keeps its last chunk, as a table key would). */
function packChunks(chunks: readonly CachedChunk[]): NodeChunks | undefined {
  const byIndex = new Map<number, CachedChunk>();
  for (const c of chunks) byIndex.set(c.chunk_index, c);
  const rows = [...byIndex.values()].sort((a, b) => a.chunk_index - b.chunk_index);
  if (rows.length === 0) return undefined;
  const texts = rows.map((c) => utf8Encoder.encode(c.text));
  const ends = new Uint32Array(rows.length);
  let total = 0;
  texts.forEach((b, i) => (ends[i] = total += b.byteLength));
  const bytes = new Uint8Array(total);
  texts.forEach((b, i) => bytes.set(b, i > 0 ? ends[i - 1] : 0));
  // Headings are copied: a heading parsed from a note is a slice of its whole text and would keep that alive.
  const headings = rows.map((c) => (c.heading === null || c.heading === undefined ? null : utf8Decoder.decode(utf8Encoder.encode(c.heading))));
  return { indexes: Uint32Array.from(rows, (c) => c.chunk_index), headings, ends, bytes };
}
