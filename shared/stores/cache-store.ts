import type { SqlValue } from 'sql.js';
import { LithosError } from '../errors';
import { CACHE_SCHEMA } from './schema';
import { openStoreDb } from './sqlite';
import type { SqlDb } from './sql-db';
import { DebouncedPersister, DEFAULT_DEBOUNCE_MS } from './debounced-persister';
import type { StoreDeps } from './journaled-store';
import { CacheTerms } from './cache-terms';

export type { StoredTermBag } from './cache-terms';

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

export interface CachedChunk {
  node_id: string;
  chunk_index: number;
  text: string;
  heading: string | null;
}

/**
 * Long text is bound as UTF-8 bytes and CAST back to TEXT in SQL: sql.js encodes bound strings with a
 * per-character JS loop, while TextEncoder is native (about a third less time for a bulk putNote).
 */
const utf8 = new TextEncoder();
const NOTE_COLS = 'path, node_id, content_hash, mtime, size, meta, indexed_at';
/** Rows per query when streaming a whole table: bounded memory, and no statement held across yields. */
const PAGE = 1000;

const toNote = (r: SqlValue[]): CachedNote => ({
  path: String(r[0]),
  node_id: String(r[1]),
  content_hash: String(r[2]),
  mtime: Number(r[3]),
  size: Number(r[4]),
  meta: String(r[5]),
  indexed_at: Number(r[6]),
});
const toChunk = (r: SqlValue[]): CachedChunk => ({
  node_id: String(r[0]),
  chunk_index: Number(r[1]),
  text: String(r[2]),
  heading: r[3] === null ? null : String(r[3]),
});

/**
 * cache.sqlite: everything a fast restart needs and that can be rebuilt from the Markdown (parsed notes,
 * chunks, embedding vectors). Not journaled: a crash loses at most the changes since the last snapshot,
 * which the next reconcile re-derives. All methods are synchronous; snapshots are debounced.
 */
export class CacheStore extends CacheTerms {
  private readonly persister: DebouncedPersister;
  private closed = false;

  private constructor(db: SqlDb, deps: StoreDeps) {
    super(db, deps.clock, deps.logger);
    this.persister = new DebouncedPersister({
      timers: deps.timers,
      clock: deps.clock,
      logger: deps.logger,
      debounceMs: deps.debounceMs ?? DEFAULT_DEBOUNCE_MS,
      persist: async () => {
        const bytes = this.db.export();
        await deps.blobs.writeAtomic(CACHE_SCHEMA.file, bytes);
      },
      label: CACHE_SCHEMA.file,
    });
  }

  /** `rebuilt` is true when the cache starts empty (absent or damaged): index everything from the Markdown. */
  static async open(deps: StoreDeps): Promise<{ store: CacheStore; warnings: string[]; rebuilt: boolean }> {
    const opened = await openStoreDb(deps, CACHE_SCHEMA);
    const warnings: string[] = [];
    if (opened.damage) {
      warnings.push(
        `${CACHE_SCHEMA.file} was damaged (${opened.damage.reason}); it will be rebuilt from the Markdown notes; ` +
          `the damaged file is kept as ${opened.damage.keptAs}.`,
      );
      for (const w of warnings) deps.logger.warn(w);
    }
    return { store: new CacheStore(opened.db, deps), warnings, rebuilt: opened.state !== 'loaded' };
  }

  /** Runs `fn` as one transaction: wrap bulk updates in it (one commit instead of one per call). */
  transaction<T>(fn: () => T): T {
    this.assertOpen();
    return this.db.transaction(fn);
  }

  // ── notes and chunks ────────────────────────────────────────────────────

  note(path: string): CachedNote | null {
    const r = this.db.one(`SELECT ${NOTE_COLS} FROM notes WHERE path = ?`, [path]);
    return r ? toNote(r) : null;
  }

  allNotes(): CachedNote[] {
    return this.db.all(`SELECT ${NOTE_COLS} FROM notes ORDER BY path`).map(toNote);
  }

  /**
   * Stores a note and replaces its node's chunks. When the path held another node id that no other
   * note uses, that node's chunks and vectors go too.
   */
  putNote(n: CachedNote, chunks: CachedChunk[]): void {
    this.assertOpen();
    if (!n.path || !n.node_id) throw new LithosError('invalid_argument', 'A cached note needs a path and a node_id.', { path: n.path });
    if (typeof n.content_hash !== 'string' || typeof n.meta !== 'string' || !Number.isFinite(n.mtime) || !Number.isFinite(n.size)) {
      throw new LithosError('invalid_argument', 'A cached note needs content_hash and meta strings and numeric mtime and size.', { path: n.path });
    }
    for (const c of chunks) {
      if (c.node_id !== n.node_id) {
        throw new LithosError('invalid_argument', `Chunk of node ${c.node_id} given for note ${n.node_id}.`, { path: n.path });
      }
      if (typeof c.text !== 'string' || !Number.isInteger(c.chunk_index) || c.chunk_index < 0) {
        throw new LithosError('invalid_argument', 'A chunk needs text and a non-negative integer chunk_index.', { path: n.path });
      }
    }
    this.db.transaction(() => {
      const prev = this.db.one('SELECT node_id FROM notes WHERE path = ?', [n.path]);
      this.db.run(`INSERT OR REPLACE INTO notes (${NOTE_COLS}) VALUES (?, ?, ?, ?, ?, CAST(? AS TEXT), ?)`, [
        n.path, n.node_id, n.content_hash, n.mtime, n.size, utf8.encode(n.meta), n.indexed_at,
      ]);
      if (prev && String(prev[0]) !== n.node_id && !this.nodeHasNote(String(prev[0]))) {
        this.db.run('DELETE FROM chunks WHERE node_id = ?', [prev[0]]);
        this.db.run('DELETE FROM vectors WHERE node_id = ?', [prev[0]]);
      }
      this.db.run('DELETE FROM chunks WHERE node_id = ?', [n.node_id]);
      for (const c of chunks) {
        this.db.run('INSERT OR REPLACE INTO chunks (node_id, chunk_index, text, heading) VALUES (?, ?, CAST(? AS TEXT), ?)', [
          c.node_id, c.chunk_index, utf8.encode(c.text), c.heading,
        ]);
      }
    });
    this.changed();
  }

  /**
   * Drops a note and its chunks. Its vectors stay (a rename seen as delete + create must not re-embed);
   * drop them with removeVectors, or pruneOrphans after a reconcile.
   */
  removeNote(path: string): void {
    this.assertOpen();
    this.db.transaction(() => {
      const prev = this.db.one('SELECT node_id FROM notes WHERE path = ?', [path]);
      if (!prev) return;
      this.db.run('DELETE FROM notes WHERE path = ?', [path]);
      if (!this.nodeHasNote(String(prev[0]))) this.db.run('DELETE FROM chunks WHERE node_id = ?', [prev[0]]);
    });
    this.changed();
  }

  /** Moves a note's row to a new path (chunks and vectors are keyed by node id and stay). No-op if absent. */
  renameNote(from: string, to: string): void {
    this.assertOpen();
    if (from === to) return;
    this.db.transaction(() => {
      if (!this.db.one('SELECT 1 FROM notes WHERE path = ?', [from])) return;
      const displaced = this.db.one('SELECT node_id FROM notes WHERE path = ?', [to]);
      this.db.run('DELETE FROM notes WHERE path = ?', [to]);
      this.db.run('UPDATE notes SET path = ? WHERE path = ?', [to, from]);
      if (displaced && !this.nodeHasNote(String(displaced[0]))) this.db.run('DELETE FROM chunks WHERE node_id = ?', [displaced[0]]);
    });
    this.changed();
  }

  chunks(nodeId: string): CachedChunk[] {
    return this.db.all('SELECT node_id, chunk_index, text, heading FROM chunks WHERE node_id = ? ORDER BY chunk_index', [nodeId]).map(toChunk);
  }

  /** Every chunk, ordered by node id then index, read page by page. */
  *allChunks(): Iterable<CachedChunk> {
    let after: [string, number] = ['', -1];
    for (;;) {
      const rows = this.db.all(
        'SELECT node_id, chunk_index, text, heading FROM chunks WHERE (node_id, chunk_index) > (?, ?) ORDER BY node_id, chunk_index LIMIT ?',
        [after[0], after[1], PAGE],
      );
      for (const r of rows) yield toChunk(r);
      if (rows.length < PAGE) return;
      const last = rows[rows.length - 1];
      after = [String(last[0]), Number(last[1])];
    }
  }

  /** Deletes chunks, vectors and term bags whose node id no note references any more. */
  pruneOrphans(): { chunks: number; vectors: number } {
    this.assertOpen();
    const out = this.db.transaction(() => {
      this.db.run('DELETE FROM chunks WHERE node_id NOT IN (SELECT node_id FROM notes)');
      const chunks = this.db.changes();
      this.db.run('DELETE FROM vectors WHERE node_id NOT IN (SELECT node_id FROM notes)');
      const vectors = this.db.changes();
      return { chunks, vectors, bags: this.pruneTermBags() };
    });
    if (out.chunks || out.vectors || out.bags) this.changed();
    return { chunks: out.chunks, vectors: out.vectors };
  }

  counts(): { notes: number; chunks: number; vectors: number; spaces: number } {
    const n = (sql: string): number => Number(this.db.one(sql)?.[0] ?? 0);
    return {
      notes: n('SELECT COUNT(*) FROM notes'),
      chunks: n('SELECT COUNT(*) FROM chunks'),
      vectors: n('SELECT COUNT(*) FROM vectors'),
      spaces: n('SELECT COUNT(*) FROM spaces'),
    };
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
    this.db.close();
  }

  protected override assertOpen(): void {
    if (this.closed) throw new LithosError('internal', 'The cache store is closed.');
  }

  protected override changed(): void {
    this.persister.markDirty();
  }

  private nodeHasNote(nodeId: string): boolean {
    return this.db.one('SELECT 1 FROM notes WHERE node_id = ? LIMIT 1', [nodeId]) !== null;
  }
}
