import type { SqlDb } from './sql-db';
import { JournaledStore, type StoreDeps } from './journaled-store';
import { applyOp } from './memory-rows';
import { MEMORY_FILES, MEMORY_JOURNAL, MEMORY_PREVIOUS, recoverMemory } from './memory-recovery';
import type { RecoveredStore } from './store-recovery';
import type { StoreLoss } from './store-loss';
import { MemoryCoactivation } from './memory-coactivation';
import { MemoryEdges } from './memory-edges';
import { MemoryEvents } from './memory-events';
import { MemoryEditors } from './memory-editors';
import { MemoryLearned } from './memory-learned';
import { MemoryNodes } from './memory-nodes';
import { MemoryPhases } from './memory-phases';
import { MemoryReplica } from './memory-replica';
import { ExpansionLog, IgnoredTermsLog, PrecedentLog } from './memory-precedent-log';
import { MemoryStats } from './memory-stats';
import { MemoryTargets } from './memory-targets';
import type { MemoryTables } from './memory-tables';
import type { MemoryOp } from './memory-types';

export type { Coactivation, EdgeRow, ReplicaDeviceRow, ReplicaOp, ShareRow, EventRow, ExpansionRow, LedgerPhaseRow, MemoryOp, NodeRow, NodeStats, NoteEditorRow, PrecedentRow, TagAffinityRow, TargetAliasRow, TermAssocRow } from './memory-types';
export { DEFAULT_NODE_STATS, TOMBSTONE_RETENTION_MS } from './memory-types';
export { MEMORY_JOURNAL, MEMORY_PREVIOUS };

export type { StoreDeps } from './journaled-store';

export type { EdgeInput } from './memory-edges';
export type { EventQuery } from './memory-events';
export type { ExpansionChange, IgnoredTermsChange, PrecedentChange } from './memory-precedent-log';

/**
 * memory.sqlite: what the engine learns and cannot re-derive from Markdown. This class owns the database,
 * the journal, snapshots and recovery; each signal is read and changed through its own facade (nodes,
 * edges, stats, coactivation, learned), all writing through the one journal. Reads are synchronous; a
 * mutation applies at once and its promise resolves when its journal line is durable, so an acknowledged
 * change survives a crash at any point.
 */
export class MemoryStore extends JournaledStore<MemoryOp> {
  private readonly precedentLog = new PrecedentLog();
  private readonly expansionLog = new ExpansionLog();
  private readonly ignoredLog = new IgnoredTermsLog();

  /** The node registry: ids, paths, tombstones. */
  readonly nodes: MemoryNodes;
  /** Typed edges between node ids. */
  readonly edges: MemoryEdges;
  /** Per-node stats. */
  readonly stats: MemoryStats;
  /** Pairs of nodes retrieved together. */
  readonly coactivation: MemoryCoactivation;
  /** The learning layer's marks, precedents, term–tag affinity and query expansion. */
  readonly learned: MemoryLearned;
  /** The knowledge ledger's phase and vitality per entry. */
  readonly phases: MemoryPhases;
  /** Episodic events and their links to notes. */
  readonly events: MemoryEvents;
  /** The ledger's target aliases (merged targets). */
  readonly targets: MemoryTargets;
  /** Who last changed each note's title or body (the trust boundary). */
  readonly editors: MemoryEditors;
  /** The devices' shares of learned rows (shared/replica); its writes are not seen by `watch`. */
  readonly replica: MemoryReplica<MemoryOp>;
  /** Changes were replayed from the journal at open (the last run did not close cleanly). */
  readonly replayedAtOpen: boolean;

  private constructor(db: SqlDb, recovered: RecoveredStore<MemoryOp>, deps: StoreDeps) {
    super(db, recovered, deps, MEMORY_FILES, 'memory store');
    this.replayedAtOpen = recovered.replayed > 0;
    const tables: MemoryTables = { db, clock: deps.clock, mutate: (plan) => this.mutate(plan) };
    this.nodes = new MemoryNodes(tables);
    this.edges = new MemoryEdges(tables);
    this.stats = new MemoryStats(tables);
    this.coactivation = new MemoryCoactivation(tables);
    this.learned = new MemoryLearned(tables, this.precedentLog, this.expansionLog, this.ignoredLog);
    this.phases = new MemoryPhases(tables);
    this.events = new MemoryEvents(tables);
    this.targets = new MemoryTargets(tables);
    this.editors = new MemoryEditors(tables);
    this.replica = new MemoryReplica<MemoryOp>({ ...tables, mutate: (plan) => this.mutateQuietly(plan) });
  }


  static async open(deps: StoreDeps): Promise<{ store: MemoryStore; warnings: string[]; losses: StoreLoss[] }> {
    const r = await recoverMemory(deps);
    const store = new MemoryStore(r.db, r, deps);
    if (r.replayed || r.resave) store.persister.markDirty();
    return { store, warnings: r.warnings, losses: r.losses };
  }

  /** Row counts across the tables (status, reports). */
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
    this.precedentLog.record(op);
    this.expansionLog.record(op);
    this.ignoredLog.record(op);
  }
}
