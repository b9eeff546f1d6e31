import { STATS_COLS, toStats } from './memory-rows';
import type { MemoryTables } from './memory-tables';
import { DEFAULT_NODE_STATS, type NodeStats } from './memory-types';
import { checkStatsPatch, nonEmpty } from './memory-validate';

/** Per-node stats of memory.sqlite: salience, retrieval and feedback counts, decay, per-query-class priors. */
export class MemoryStats {
  constructor(private readonly t: MemoryTables) {}

  /** The node's stats; the defaults when it has none yet. */
  get(nodeId: string): NodeStats {
    const r = this.t.db.one(`SELECT ${STATS_COLS} FROM node_stats WHERE node_id = ?`, [nodeId]);
    return r ? toStats(r) : { node_id: nodeId, ...DEFAULT_NODE_STATS, per_queryclass_priors: {} };
  }

  async update(nodeId: string, patch: Partial<Omit<NodeStats, 'node_id'>>): Promise<NodeStats> {
    let next: NodeStats | null = null;
    await this.t.mutate(() => {
      nonEmpty('node_id', nodeId);
      next = { ...this.get(nodeId), ...checkStatsPatch(patch), node_id: nodeId };
      return [{ kind: 'stats', row: next }];
    });
    return next as unknown as NodeStats;
  }

  /** Every stats row (decay walks them all). */
  all(): NodeStats[] {
    return this.t.db.all(`SELECT ${STATS_COLS} FROM node_stats ORDER BY node_id`).map(toStats);
  }
}
