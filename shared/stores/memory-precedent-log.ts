import type { MemoryOp } from './memory-types';

/** A change to the precedents table, as readers of precedentChangesSince see it. */
export type PrecedentChange = Extract<MemoryOp, { kind: 'precedent' | 'precedent_del' }>;
/** Precedent changes kept in memory for incremental readers; one further behind rebuilds from precedents(). */
const PRECEDENT_LOG = 1000;

/** The precedent changes applied in this process, so a reader can catch up without re-reading the table. */
export class PrecedentLog {
  private log: PrecedentChange[] = [];
  private start = 0;

  /** Called for every op the store applies; keeps the precedent ones. */
  record(op: MemoryOp): void {
    if (op.kind !== 'precedent' && op.kind !== 'precedent_del') return;
    this.log.push(op);
    if (this.log.length > 2 * PRECEDENT_LOG) {
      const drop = this.log.length - PRECEDENT_LOG;
      this.log = this.log.slice(drop);
      this.start += drop;
    }
  }

  get version(): number {
    return this.start + this.log.length;
  }

  since(version: number): readonly PrecedentChange[] | null {
    if (version < this.start || version > this.version) return null;
    return this.log.slice(version - this.start);
  }
}
