import { LithosError } from '../errors';
import type { SqlDb } from './sql-db';
import { JournaledStore, type StoreDeps } from './journaled-store';
import { applyOp, PRECEDENT_COLS, toPrecedent } from './memory-rows';
import { MEMORY_FILES, MEMORY_JOURNAL, MEMORY_PREVIOUS, recoverMemory } from './memory-recovery';
import type { RecoveredStore } from './store-recovery';
import type { StoreLoss } from './store-loss';
import { MemoryCoactivation } from './memory-coactivation';
import { MemoryEdges } from './memory-edges';
import { MemoryNodes } from './memory-nodes';
import { MemoryStats } from './memory-stats';
import type { MemoryTables } from './memory-tables';
import type { MemoryOp, PrecedentRow, TagAffinityRow } from './memory-types';
import { checkPrecedent, nonEmpty } from './memory-validate';

export type { Coactivation, EdgeRow, MemoryOp, NodeRow, NodeStats, PrecedentRow, TagAffinityRow } from './memory-types';
export { DEFAULT_NODE_STATS, TOMBSTONE_RETENTION_MS } from './memory-types';
export { MEMORY_JOURNAL, MEMORY_PREVIOUS };

export type { StoreDeps } from './journaled-store';

export type { EdgeInput } from './memory-edges';

/**
 * memory.sqlite: what the engine learns and cannot re-derive from Markdown (node registry, typed edges,
 * per-node stats, co-activation). Reads are synchronous; a mutation applies at once and its promise
 * resolves when its journal line is durable, so an acknowledged change survives a crash at any point.
 */
/** A change to the precedents table, as readers of precedentChangesSince see it. */
export type PrecedentChange = Extract<MemoryOp, { kind: 'precedent' | 'precedent_del' }>;
/** Precedent changes kept in memory for incremental readers; one further behind rebuilds from precedents(). */
const PRECEDENT_LOG = 1000;

export class MemoryStore extends JournaledStore<MemoryOp> {
  private precedentLog: PrecedentChange[] = [];
  private precedentLogStart = 0;

  /** The node registry: ids, paths, tombstones. */
  readonly nodes: MemoryNodes;
  /** Typed edges between node ids. */
  readonly edges: MemoryEdges;
  /** Per-node stats. */
  readonly stats: MemoryStats;
  /** Pairs of nodes retrieved together. */
  readonly coactivation: MemoryCoactivation;

  private constructor(db: SqlDb, recovered: RecoveredStore<MemoryOp>, deps: StoreDeps) {
    super(db, recovered, deps, MEMORY_FILES, 'memory store');
    const tables: MemoryTables = { db, clock: deps.clock, mutate: (plan) => this.mutate(plan) };
    this.nodes = new MemoryNodes(tables);
    this.edges = new MemoryEdges(tables);
    this.stats = new MemoryStats(tables);
    this.coactivation = new MemoryCoactivation(tables);
  }

  static async open(deps: StoreDeps): Promise<{ store: MemoryStore; warnings: string[]; losses: StoreLoss[] }> {
    const r = await recoverMemory(deps);
    const store = new MemoryStore(r.db, r, deps);
    if (r.replayed || r.resave) store.persister.markDirty();
    return { store, warnings: r.warnings, losses: r.losses };
  }

  // ── learning marks ──────────────────────────────────────────────────────

  /** A learning-layer bookmark (shared/learning): null when never set. */
  mark(key: string): unknown {
    const r = this.db.one('SELECT value FROM learning_marks WHERE key = ?', [key]);
    return r ? (JSON.parse(String(r[0])) as unknown) : null;
  }

  /** Marks whose key starts with `prefix`, with their values (e.g. every `feedback:` mark). */
  marksWithPrefix(prefix: string): { key: string; value: unknown }[] {
    return this.db
      .all("SELECT key, value FROM learning_marks WHERE substr(key, 1, ?) = ? ORDER BY key", [prefix.length, prefix])
      .map((r) => ({ key: String(r[0]), value: JSON.parse(String(r[1])) as unknown }));
  }

  deleteMarks(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return Promise.resolve();
    return this.mutate(() => [{ kind: 'mark_del', keys: [...keys] }]);
  }

  setMark(key: string, value: unknown): Promise<void> {
    return this.mutate(() => {
      nonEmpty('key', key);
      return [{ kind: 'mark', key, value: value ?? null }];
    });
  }

  // ── precedents ──────────────────────────────────────────────────────────

  /**
   * Records a precedent (same id: replaced) and prunes the oldest beyond `keep`, in one mutation. The
   * row is validated first; nothing is written for a bad one.
   */
  addPrecedent(row: PrecedentRow, keep: number): Promise<void> {
    return this.mutate(() => {
      checkPrecedent(row);
      if (!Number.isInteger(keep) || keep < 1) throw new LithosError('invalid_argument', 'keep must be a positive integer.', { keep });
      const ops: MemoryOp[] = [{ kind: 'precedent', row: { ...row, terms: [...row.terms], used: [...row.used] } }];
      const others = Number(this.db.one('SELECT COUNT(*) FROM precedents WHERE precedent_id <> ?', [row.precedent_id])?.[0] ?? 0);
      if (others + 1 > keep) {
        const old = this.db
          .all('SELECT precedent_id FROM precedents WHERE precedent_id <> ? ORDER BY at, precedent_id LIMIT ?', [row.precedent_id, others + 1 - keep])
          .map((r) => String(r[0]));
        ops.push({ kind: 'precedent_del', ids: old });
      }
      return ops;
    });
  }

  /** Every precedent, newest first. */
  precedents(): PrecedentRow[] {
    return this.db.all(`SELECT ${PRECEDENT_COLS} FROM precedents ORDER BY at DESC, precedent_id DESC`).map(toPrecedent);
  }

  /** Counts precedent changes in this process (readers cache on it). */
  get precedentVersion(): number {
    return this.precedentLogStart + this.precedentLog.length;
  }

  /** The changes after `version`, oldest first; null when they are no longer kept (read precedents() again). */
  precedentChangesSince(version: number): readonly PrecedentChange[] | null {
    if (version < this.precedentLogStart || version > this.precedentVersion) return null;
    return this.precedentLog.slice(version - this.precedentLogStart);
  }

  // ── term–tag affinity ───────────────────────────────────────────────────

  /** The affinity rows of these terms (tag '' = a term's totals) and the overall row (term and tag ''). */
  tagAffinity(terms: readonly string[]): TagAffinityRow[] {
    const list = [...new Set(['', ...terms])];
    return this.db
      .all(`SELECT term, tag, shown, used, at FROM tag_affinity WHERE term IN (${list.map(() => '?').join(', ')}) ORDER BY term, tag`, list)
      .map((r) => ({ term: String(r[0]), tag: String(r[1]), shown: Number(r[2]), used: Number(r[3]), at: Number(r[4]) }));
  }

  /** Adds showings and uses to term–tag rows (created as needed) in one mutation. */
  addTagAffinity(deltas: readonly Omit<TagAffinityRow, 'at'>[], at: number): Promise<void> {
    return this.mutate(() => {
      const sum = new Map<string, Omit<TagAffinityRow, 'at'>>();
      for (const d of deltas) {
        if (!(Number.isInteger(d.shown) && Number.isInteger(d.used) && d.used >= 0 && d.shown >= d.used)) {
          throw new LithosError('invalid_argument', 'Affinity counts must be integers with 0 <= used <= shown.', { term: d.term, tag: d.tag });
        }
        const key = JSON.stringify([d.term, d.tag]);
        const s = sum.get(key);
        sum.set(key, s ? { ...s, shown: s.shown + d.shown, used: s.used + d.used } : { ...d });
      }
      const rows: TagAffinityRow[] = [];
      for (const d of sum.values()) {
        const r = this.db.one('SELECT shown, used, at FROM tag_affinity WHERE term = ? AND tag = ?', [d.term, d.tag]);
        rows.push({ ...d, shown: d.shown + Number(r?.[0] ?? 0), used: d.used + Number(r?.[1] ?? 0), at: Math.max(at, Number(r?.[2] ?? at)) });
      }
      return rows.length ? [{ kind: 'affinity', rows }] : [];
    });
  }

  /** Forgets term–tag rows last counted before `before` with fewer than `below` showings; the overall row stays. */
  async pruneTagAffinity(before: number, below: number): Promise<number> {
    const n = Number(this.db.one("SELECT COUNT(*) FROM tag_affinity WHERE at < ? AND shown < ? AND NOT (term = '' AND tag = '')", [before, below])?.[0] ?? 0);
    if (n > 0) await this.mutate(() => [{ kind: 'affinity_prune', before, below }]);
    return n;
  }

  counts(): { nodes: number; tombstones: number; edges: number; stats: number; coactivation: number } {
    const n = (sql: string): number => Number(this.db.one(sql)?.[0] ?? 0);
    return {
      nodes: n('SELECT COUNT(*) FROM nodes WHERE deleted_at IS NULL'),
      tombstones: n('SELECT COUNT(*) FROM nodes WHERE deleted_at IS NOT NULL'),
      edges: n('SELECT COUNT(*) FROM edges'),
      stats: n('SELECT COUNT(*) FROM node_stats'),
      coactivation: n('SELECT COUNT(*) FROM coactivation'),
    };
  }

  // ── internals ───────────────────────────────────────────────────────────

  protected override apply(op: MemoryOp): void {
    applyOp(this.db, op);
    if (op.kind === 'precedent' || op.kind === 'precedent_del') {
      this.precedentLog.push(op);
      if (this.precedentLog.length > 2 * PRECEDENT_LOG) {
        const drop = this.precedentLog.length - PRECEDENT_LOG;
        this.precedentLog = this.precedentLog.slice(drop);
        this.precedentLogStart += drop;
      }
    }
  }
}
