import type { Clock, Logger } from '../ports';
import { LithosError } from '../errors';
import type { CacheTables, VectorRows } from './cache-tables';
import { quantise } from './vector-bytes';

export interface EmbeddingSpace {
  id: string;
  dimensions: number;
  status: string;
}

/**
 * The vectors and spaces of the cache (CacheStore extends this). A node's vectors in one space carry the
 * content hash they were computed from, so a changed note's vectors read as stale, not wrong.
 */
export abstract class CacheVectors {
  protected constructor(
    protected tables: CacheTables,
    protected readonly clock: Clock,
    protected readonly logger: Logger,
  ) {}

  protected abstract changed(): void;
  protected abstract assertOpen(): void;

  /**
   * Replaces a node's vectors in one space, one per chunk index. An unknown space is registered with
   * the vectors' dimension; a known one must match it.
   */
  putVectors(nodeId: string, spaceId: string, contentHash: string, vectors: Float32Array[]): void {
    this.assertOpen();
    if (!nodeId || !spaceId) throw new LithosError('invalid_argument', 'putVectors needs a node id and a space id.');
    const dims = vectors[0]?.length;
    if (vectors.some((v) => !(v instanceof Float32Array) || v.length !== dims || v.length === 0)) {
      throw new LithosError('invalid_argument', 'All vectors of a note must have the same, non-zero length.', { node_id: nodeId });
    }
    const t = this.tables;
    const space = t.spaces.get(spaceId);
    if (dims !== undefined && space && space.dimensions !== dims) {
      throw new LithosError('invalid_argument', `Space ${spaceId} holds ${space.dimensions}-dimensional vectors, not ${dims}.`, { space: spaceId });
    }
    t.transaction(() => {
      if (dims !== undefined) {
        if (!space) this.insertSpace(spaceId, dims);
        else if (space.status !== 'active') t.setSpace(spaceId, { ...space, status: 'active' });
      }
      t.setVectors(nodeId, spaceId, dims === undefined ? undefined : packRows(vectors, dims, String(contentHash)));
    });
    if (dims !== undefined) this.byContent?.set(`${spaceId}\u0000${contentHash}`, nodeId);
    this.changed();
  }

  /** A node's vectors in chunk order; null when there are none, or when they were computed from other content. */
  vectors(nodeId: string, spaceId: string, contentHash?: string): Float32Array[] | null {
    const v = this.tables.vectors.get(nodeId)?.get(spaceId);
    if (!v || (contentHash !== undefined && v.contentHash !== contentHash)) return null;
    return unpackRows(v);
  }

  /**
   * A node's vectors still quantised, for the search index to take without decoding (null as for
   * vectors()). The arrays are the store's own: read them, never change them.
   */
  packedVectors(nodeId: string, spaceId: string, contentHash?: string): Readonly<VectorRows> | null {
    const v = this.tables.vectors.get(nodeId)?.get(spaceId);
    return !v || (contentHash !== undefined && v.contentHash !== contentHash) ? null : v;
  }

  /**
   * Vectors some node holds in `spaceId` for this exact content (any node id), or null: a note another device
   * embedded (its cache carried by the sync tool, under that device's node ids) or a copy of a note is not
   * embedded again. The lookup table is built at the first call and kept by putVectors.
   */
  vectorsByContent(spaceId: string, contentHash: string, count: number): Float32Array[] | null {
    if (!this.byContent) {
      this.byContent = new Map();
      for (const [nodeId, bySpace] of this.tables.vectors) for (const [s, v] of bySpace) this.byContent.set(`${s}\u0000${v.contentHash}`, nodeId);
    }
    const nodeId = this.byContent.get(`${spaceId}\u0000${contentHash}`);
    const v = nodeId === undefined ? undefined : this.tables.vectors.get(nodeId)?.get(spaceId);
    // The node may have changed or gone since: only rows computed from this content, chunk for chunk, count.
    return v && v.contentHash === contentHash && v.count === count ? unpackRows(v) : null;
  }

  private byContent: Map<string, string> | null = null;

  /** Every vector of a space, ordered by node id then chunk index. */
  *allVectors(spaceId: string): Iterable<{ node_id: string; chunk_index: number; vector: Float32Array }> {
    const nodes = [...this.tables.vectors.keys()].sort();
    for (const nodeId of nodes) {
      const v = this.tables.vectors.get(nodeId)?.get(spaceId);
      if (!v) continue;
      const list = unpackRows(v);
      for (let i = 0; i < list.length; i++) yield { node_id: nodeId, chunk_index: i, vector: list[i] };
    }
  }

  removeVectors(nodeId: string, spaceId?: string): void {
    this.assertOpen();
    const bySpace = this.tables.vectors.get(nodeId);
    if (!bySpace) return;
    const spaces = spaceId === undefined ? [...bySpace.keys()] : bySpace.has(spaceId) ? [spaceId] : [];
    if (spaces.length === 0) return;
    this.tables.transaction(() => {
      for (const s of spaces) this.tables.setVectors(nodeId, s, undefined);
    });
    this.changed();
  }

  /**
   * Declares a space (idempotent). A retired space becomes active again. Re-declaring it with another
   * dimension drops its vectors: they cannot be compared with the new ones (the cache is derivable).
   */
  registerSpace(spaceId: string, dimensions: number): void {
    this.assertOpen();
    if (!spaceId) throw new LithosError('invalid_argument', 'A space id must be a non-empty string.');
    if (!Number.isInteger(dimensions) || dimensions <= 0) {
      throw new LithosError('invalid_argument', 'dimensions must be a positive integer.', { space: spaceId, dimensions });
    }
    const space = this.tables.spaces.get(spaceId);
    if (space && space.dimensions === dimensions && space.status === 'active') return;
    this.tables.transaction(() => {
      if (space && space.dimensions !== dimensions) {
        this.logger.warn(`embedding space ${spaceId} changed from ${space.dimensions} to ${dimensions} dimensions; its cached vectors were dropped`);
        this.dropSpaceVectors(spaceId);
      }
      if (space) this.tables.setSpace(spaceId, { ...space, dimensions, status: 'active' });
      else this.insertSpace(spaceId, dimensions);
    });
    this.changed();
  }

  spaces(): EmbeddingSpace[] {
    return [...this.tables.spaces]
      .sort(([a, x], [b, y]) => x.createdAt - y.createdAt || (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, s]) => ({ id, dimensions: s.dimensions, status: s.status }));
  }

  /** Marks a space retired and drops its vectors (nothing compares against them any more). No-op if unknown. */
  retireSpace(spaceId: string): void {
    this.assertOpen();
    const space = this.tables.spaces.get(spaceId);
    if (!space) return;
    this.tables.transaction(() => {
      this.tables.setSpace(spaceId, { ...space, status: 'retired' });
      this.dropSpaceVectors(spaceId);
    });
    this.changed();
  }

  /** Vector rows of nodes no note references any more are dropped; returns how many vectors. */
  protected pruneVectors(): number {
    let n = 0;
    for (const [nodeId, bySpace] of [...this.tables.vectors]) {
      if (this.tables.nodeHasNote(nodeId)) continue;
      for (const [spaceId, v] of [...bySpace]) {
        n += v.count;
        this.tables.setVectors(nodeId, spaceId, undefined);
      }
    }
    return n;
  }

  private dropSpaceVectors(spaceId: string): void {
    for (const [nodeId, bySpace] of [...this.tables.vectors]) if (bySpace.has(spaceId)) this.tables.setVectors(nodeId, spaceId, undefined);
  }

  private insertSpace(spaceId: string, dimensions: number): void {
    this.tables.setSpace(spaceId, { dimensions, createdAt: this.clock.now(), status: 'active' });
  }
}

/** All vectors of a node in one space, quantised into one pair of arrays. */
function packRows(vectors: readonly Float32Array[], dims: number, contentHash: string): VectorRows {
  const steps = new Float32Array(vectors.length);
  const values = new Int8Array(vectors.length * dims);
  vectors.forEach((v, i) => {
    steps[i] = quantise(v, values.subarray(i * dims, (i + 1) * dims)).step;
  });
  return { contentHash, dims, count: vectors.length, steps, values };
}

/** The stored form (exactly what vector-bytes.ts's storedForm gives), as views of one buffer. */
function unpackRows(v: VectorRows): Float32Array[] {
  const { dims, steps, values } = v;
  const all = new Float32Array(values.length);
  const out: Float32Array[] = [];
  for (let r = 0; r < v.count; r++) {
    const step = steps[r];
    const base = r * dims;
    for (let i = base; i < base + dims; i++) all[i] = values[i] * step;
    out.push(all.subarray(base, base + dims));
  }
  return out;
}
