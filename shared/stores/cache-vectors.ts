import type { SqlValue } from 'sql.js';
import type { Clock, Logger } from '../ports';
import { LithosError } from '../errors';
import type { SqlDb } from './sql-db';
import { bytesToVector, vectorToBytes } from './vector-bytes';

export interface EmbeddingSpace {
  id: string;
  dimensions: number;
  status: string;
}

/** Rows per query when streaming a whole space. */
const PAGE = 1000;

/**
 * The `vectors` and `spaces` tables of cache.sqlite (CacheStore extends this). Each vector row carries
 * the content hash it was computed from, so a changed note's vectors read as stale, not wrong.
 */
export abstract class CacheVectors {
  protected constructor(
    protected readonly db: SqlDb,
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
    if (vectors.some((v) => v.length !== dims || v.length === 0)) {
      throw new LithosError('invalid_argument', 'All vectors of a note must have the same, non-zero length.', { node_id: nodeId });
    }
    this.db.transaction(() => {
      if (dims !== undefined) {
        const space = this.db.one('SELECT dimensions, status FROM spaces WHERE embedding_space_id = ?', [spaceId]);
        if (!space) this.insertSpace(spaceId, dims);
        else if (Number(space[0]) !== dims) {
          throw new LithosError('invalid_argument', `Space ${spaceId} holds ${String(space[0])}-dimensional vectors, not ${dims}.`, {
            space: spaceId,
          });
        } else if (space[1] !== 'active') {
          this.db.run("UPDATE spaces SET status = 'active' WHERE embedding_space_id = ?", [spaceId]);
        }
      }
      this.db.run('DELETE FROM vectors WHERE node_id = ? AND embedding_space_id = ?', [nodeId, spaceId]);
      vectors.forEach((v, i) => {
        this.db.run('INSERT INTO vectors (node_id, chunk_index, embedding_space_id, vector, content_hash) VALUES (?, ?, ?, ?, ?)', [
          nodeId, i, spaceId, vectorToBytes(v), contentHash,
        ]);
      });
    });
    this.changed();
  }

  /** A node's vectors in chunk order; null when there are none, or when they were computed from other content. */
  vectors(nodeId: string, spaceId: string, contentHash?: string): Float32Array[] | null {
    const rows = this.db.all(
      'SELECT vector, content_hash FROM vectors WHERE node_id = ? AND embedding_space_id = ? ORDER BY chunk_index',
      [nodeId, spaceId],
    );
    if (rows.length === 0) return null;
    if (contentHash !== undefined && rows.some((r) => r[1] !== contentHash)) return null;
    return rows.map((r) => bytesToVector(r[0] as Uint8Array));
  }

  /** Every vector of a space, ordered by node id then chunk index, read page by page. */
  *allVectors(spaceId: string): Iterable<{ node_id: string; chunk_index: number; vector: Float32Array }> {
    let after: [string, number] = ['', -1];
    for (;;) {
      const rows: SqlValue[][] = this.db.all(
        `SELECT node_id, chunk_index, vector FROM vectors
         WHERE embedding_space_id = ? AND (node_id, chunk_index) > (?, ?) ORDER BY node_id, chunk_index LIMIT ?`,
        [spaceId, after[0], after[1], PAGE],
      );
      for (const r of rows) yield { node_id: String(r[0]), chunk_index: Number(r[1]), vector: bytesToVector(r[2] as Uint8Array) };
      if (rows.length < PAGE) return;
      const last = rows[rows.length - 1];
      after = [String(last[0]), Number(last[1])];
    }
  }

  removeVectors(nodeId: string, spaceId?: string): void {
    this.assertOpen();
    if (spaceId === undefined) this.db.run('DELETE FROM vectors WHERE node_id = ?', [nodeId]);
    else this.db.run('DELETE FROM vectors WHERE node_id = ? AND embedding_space_id = ?', [nodeId, spaceId]);
    if (this.db.changes() > 0) this.changed();
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
    const space = this.db.one('SELECT dimensions, status FROM spaces WHERE embedding_space_id = ?', [spaceId]);
    if (space && Number(space[0]) === dimensions && space[1] === 'active') return;
    this.db.transaction(() => {
      if (space && Number(space[0]) !== dimensions) {
        this.logger.warn(`embedding space ${spaceId} changed from ${String(space[0])} to ${dimensions} dimensions; its cached vectors were dropped`);
        this.db.run('DELETE FROM vectors WHERE embedding_space_id = ?', [spaceId]);
      }
      if (space) this.db.run("UPDATE spaces SET dimensions = ?, status = 'active' WHERE embedding_space_id = ?", [dimensions, spaceId]);
      else this.insertSpace(spaceId, dimensions);
    });
    this.changed();
  }

  spaces(): EmbeddingSpace[] {
    return this.db
      .all('SELECT embedding_space_id, dimensions, status FROM spaces ORDER BY created_at, embedding_space_id')
      .map((r) => ({ id: String(r[0]), dimensions: Number(r[1]), status: String(r[2]) }));
  }

  /** Marks a space retired and drops its vectors (nothing compares against them any more). No-op if unknown. */
  retireSpace(spaceId: string): void {
    this.assertOpen();
    this.db.transaction(() => {
      this.db.run("UPDATE spaces SET status = 'retired' WHERE embedding_space_id = ?", [spaceId]);
      if (this.db.changes() === 0) return;
      this.db.run('DELETE FROM vectors WHERE embedding_space_id = ?', [spaceId]);
    });
    this.changed();
  }

  private insertSpace(spaceId: string, dimensions: number): void {
    this.db.run("INSERT INTO spaces (embedding_space_id, dimensions, created_at, status) VALUES (?, ?, ?, 'active')", [
      spaceId, dimensions, this.clock.now(),
    ]);
  }
}
