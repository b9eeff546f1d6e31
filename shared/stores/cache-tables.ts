/** The cache store's rows, held as plain JS maps (see cache-store.ts for why not sql.js). */

export interface CachedNote {
  path: string;
  node_id: string;
  content_hash: string;
  mtime: number;
  size: number;
  /** Opaque JSON from the engine (parsed meta, headings, links, problems). */
  meta: string;
  indexed_at: number;
}

/**
 * A note row as the tables hold it: `meta` stays UTF-8 (a view of the file it was read from, or the bytes
 * putNote encoded). As strings, every note's meta JSON stayed on the heap for the session (~17 MB at 10k
 * notes); as bytes it costs nothing beyond the file already in memory, and is decoded when asked for.
 */
export type StoredNote = Omit<CachedNote, 'meta'> & { meta: Uint8Array };

export interface CachedChunk {
  node_id: string;
  chunk_index: number;
  text: string;
  heading: string | null;
}

/**
 * One node's chunks with their texts kept as UTF-8, back to back: chunk i is bytes[ends[i-1] .. ends[i]]
 * (from 0 for the first). Texts are decoded only when asked for; most are never read between two starts.
 */
export interface NodeChunks {
  indexes: Uint32Array;
  headings: (string | null)[];
  ends: Uint32Array;
  bytes: Uint8Array;
}

/**
 * One node's vectors in one space, int8-quantised (vector-bytes.ts): vector r is values[r·dims ..] times
 * steps[r]. The search index takes this form as is (shared/index/vector-store.ts, PackedVectors).
 */
export interface VectorRows {
  contentHash: string;
  dims: number;
  count: number;
  steps: Float32Array;
  values: Int8Array;
}

export interface SpaceRow {
  dimensions: number;
  createdAt: number;
  status: 'active' | 'retired';
}

/** A note's BM25 term bag as stored (see shared/index/term-bags.ts for what it means). */
export interface StoredTermBag {
  node_id: string;
  lexHash: string;
  ids: Uint32Array;
  tfs: Uint16Array;
  length: number;
}

/** The cache is persisted as this many shard files by node id, plus one global file (cache-codec.ts). */
export const SHARDS = 16;
/** The part holding spaces and the term dictionary. */
export const GLOBAL = -1;

/** Which shard file holds a node's note rows, chunks, vectors and term bag (FNV-1a of the id). */
export function shardOf(nodeId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < nodeId.length; i++) h = Math.imul(h ^ nodeId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHARDS;
}

/**
 * Every table of the cache, with one setter per table that records its own undo while a transaction is
 * open: a failing transaction() puts back exactly what it changed, as SQLite's savepoints did. Each setter
 * also marks the part it changed (`dirty`), so a snapshot rewrites only those files.
 */
export class CacheTables {
  /** Parts (shard numbers, GLOBAL) changed since they were last taken by a snapshot. */
  readonly dirty = new Set<number>();
  readonly notes = new Map<string, StoredNote>();
  /** node id → how many note rows reference it (several paths may briefly share one during a rename). */
  readonly notesPerNode = new Map<string, number>();
  /** node id → its chunks in index order */
  readonly chunks = new Map<string, NodeChunks>();
  readonly vectors = new Map<string, Map<string, VectorRows>>();
  readonly spaces = new Map<string, SpaceRow>();
  readonly bags = new Map<string, StoredTermBag>();
  /** term id → term; append-only */
  readonly terms: string[] = [];
  private undo: (() => void)[] | null = null;

  transaction<T>(fn: () => T): T {
    const outer = this.undo === null;
    const log = (this.undo ??= []);
    const mark = log.length;
    try {
      return fn();
    } catch (err) {
      for (let i = log.length - 1; i >= mark; i--) log[i]();
      log.length = mark;
      throw err;
    } finally {
      if (outer) this.undo = null;
    }
  }

  setNote(path: string, note: StoredNote | undefined): void {
    const prev = this.notes.get(path);
    this.undo?.push(() => this.setNote(path, prev));
    if (prev) this.dirty.add(shardOf(prev.node_id));
    if (note) this.dirty.add(shardOf(note.node_id));
    if (prev) this.countNode(prev.node_id, -1);
    if (note) {
      this.notes.set(path, note);
      this.countNode(note.node_id, 1);
    } else this.notes.delete(path);
  }

  setChunks(nodeId: string, chunks: NodeChunks | undefined): void {
    restore(this.undo, this.chunks, nodeId);
    this.dirty.add(shardOf(nodeId));
    if (chunks) this.chunks.set(nodeId, chunks);
    else this.chunks.delete(nodeId);
  }

  setVectors(nodeId: string, spaceId: string, rows: VectorRows | undefined): void {
    const bySpace = this.vectors.get(nodeId);
    const prev = bySpace?.get(spaceId);
    if (prev === rows) return;
    this.undo?.push(() => this.setVectors(nodeId, spaceId, prev));
    this.dirty.add(shardOf(nodeId));
    if (rows) {
      if (bySpace) bySpace.set(spaceId, rows);
      else this.vectors.set(nodeId, new Map([[spaceId, rows]]));
    } else if (bySpace) {
      bySpace.delete(spaceId);
      if (bySpace.size === 0) this.vectors.delete(nodeId);
    }
  }

  setSpace(spaceId: string, row: SpaceRow | undefined): void {
    restore(this.undo, this.spaces, spaceId);
    this.dirty.add(GLOBAL);
    if (row) this.spaces.set(spaceId, row);
    else this.spaces.delete(spaceId);
  }

  setBag(nodeId: string, bag: StoredTermBag | undefined): void {
    restore(this.undo, this.bags, nodeId);
    this.dirty.add(shardOf(nodeId));
    if (bag) this.bags.set(nodeId, bag);
    else this.bags.delete(nodeId);
  }

  appendTerms(terms: readonly string[]): void {
    const before = this.terms.length;
    this.undo?.push(() => {
      this.terms.length = before;
    });
    this.dirty.add(GLOBAL);
    for (const t of terms) this.terms.push(t);
  }

  /**
   * Loads records read from a file straight into the maps (no undo, nothing marked dirty). A path already
   * present keeps whichever row was indexed last.
   */
  absorb(r: {
    spaces: [string, SpaceRow][];
    terms: string[];
    notes: StoredNote[];
    chunks: [string, NodeChunks][];
    vectors: [string, string, VectorRows][];
    bags: StoredTermBag[];
  }): void {
    for (const [id, s] of r.spaces) this.spaces.set(id, s);
    for (const term of r.terms) this.terms.push(term);
    for (const n of r.notes) {
      const have = this.notes.get(n.path);
      if (have && have.indexed_at >= n.indexed_at) continue;
      if (have) this.countNode(have.node_id, -1);
      this.notes.set(n.path, n);
      this.countNode(n.node_id, 1);
    }
    for (const [nodeId, c] of r.chunks) this.chunks.set(nodeId, c);
    for (const [nodeId, spaceId, v] of r.vectors) {
      const bySpace = this.vectors.get(nodeId);
      if (bySpace) bySpace.set(spaceId, v);
      else this.vectors.set(nodeId, new Map([[spaceId, v]]));
    }
    for (const b of r.bags) this.bags.set(b.node_id, b);
  }

  nodeHasNote(nodeId: string): boolean {
    return (this.notesPerNode.get(nodeId) ?? 0) > 0;
  }

  private countNode(nodeId: string, delta: number): void {
    const n = (this.notesPerNode.get(nodeId) ?? 0) + delta;
    if (n > 0) this.notesPerNode.set(nodeId, n);
    else this.notesPerNode.delete(nodeId);
  }
}

/** Records how to put `key` back as it is now. */
function restore<V>(undo: (() => void)[] | null, map: Map<string, V>, key: string): void {
  if (!undo) return;
  const had = map.has(key);
  const prev = map.get(key);
  undo.push(() => {
    if (had) map.set(key, prev as V);
    else map.delete(key);
  });
}
