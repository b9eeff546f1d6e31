import { LithosError } from '../errors';
import type { MemoryTables } from './memory-tables';
import type { Coactivation } from './memory-types';
import { nonEmpty } from './memory-validate';

/** Co-activation in memory.sqlite: how often two nodes were retrieved together, per namespace. */
export class MemoryCoactivation {
  constructor(private readonly t: MemoryTables) {}

  /** Counts one co-retrieval of a and b; the pair is stored once, smaller id first. */
  bump(a: string, b: string, namespace: string, at: number): Promise<void> {
    return this.t.mutate(() => {
      nonEmpty('a', a);
      nonEmpty('b', b);
      if (a === b) throw new LithosError('invalid_argument', 'A node does not co-activate with itself.', { node_id: a });
      const [x, y] = a < b ? [a, b] : [b, a];
      const r = this.t.db.one('SELECT count, last_at FROM coactivation WHERE node_id_a = ? AND node_id_b = ? AND namespace = ?', [x, y, namespace]);
      const count = r ? Number(r[0]) + 1 : 1;
      const last_at = r ? Math.max(Number(r[1]), at) : at;
      return [{ kind: 'coact', a: x, b: y, namespace, count, last_at }];
    });
  }

  /**
   * Forgets pairs last co-retrieved before `before` that were seen fewer than `below` times: too few to
   * have formed anything, and too old to. Returns how many went.
   */
  async prune(before: number, below: number): Promise<number> {
    const n = Number(this.t.db.one('SELECT COUNT(*) FROM coactivation WHERE last_at < ? AND count < ?', [before, below])?.[0] ?? 0);
    if (n > 0) await this.t.mutate(() => [{ kind: 'coact_prune', before, below }]);
    return n;
  }

  /** The nodes co-retrieved with `nodeId`, most often first. */
  of(nodeId: string): Coactivation[] {
    return this.t.db
      .all(
        `SELECT node_id_b, namespace, count, last_at FROM coactivation WHERE node_id_a = ?
         UNION ALL SELECT node_id_a, namespace, count, last_at FROM coactivation WHERE node_id_b = ?
         ORDER BY 3 DESC, 1, 2`,
        [nodeId, nodeId],
      )
      .map((r) => ({ other: String(r[0]), namespace: String(r[1]), count: Number(r[2]), last_at: Number(r[3]) }));
  }
}
