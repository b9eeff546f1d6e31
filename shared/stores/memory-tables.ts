import type { Clock } from '../ports';
import type { SqlDb } from './sql-db';
import type { MemoryOp } from './memory-types';

/**
 * What a memory.sqlite facade (nodes, edges, stats, co-activation, learned signals) is given by the
 * MemoryStore that owns the database and the journal: reads go straight to `db`; every change goes
 * through `mutate`, so all facades share one journal, one snapshot and one recovery.
 */
export interface MemoryTables {
  readonly db: SqlDb;
  readonly clock: Clock;
  /** Plans ops (may throw: nothing is written), applies them at once; resolves when journaled. */
  mutate(plan: () => MemoryOp[]): Promise<void>;
}
