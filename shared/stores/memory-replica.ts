import type { SqlDb } from './sql-db';
import type { Clock } from '../ports';
import type { ReplicaDeviceRow, ReplicaOp, ShareRow } from './replica-rows';

const toShare = (r: unknown[]): ShareRow => ({
  tbl: String(r[0]),
  key: String(r[1]),
  device: String(r[2]),
  stamp: String(r[3]),
  share: JSON.parse(String(r[4])) as unknown,
  applied: Number(r[5]) === 1,
});
const SHARE_COLS = 'tbl, key, device, stamp, share, applied';

/**
 * A store's devices' shares of learned rows and what is known of each device (shared/replica gives them their
 * meaning). Changes to shares and to the rows they materialise go through `mutate` together, so a crash never
 * leaves a row that disagrees with its shares.
 */
export class MemoryReplica<Op extends { kind: string } = ReplicaOp> {
  constructor(private readonly t: { readonly db: SqlDb; readonly clock: Clock; mutate(plan: () => (Op | ReplicaOp)[]): Promise<void> }) {}

  /** Read access for the replica's row codecs (the learned tables are theirs to read by key). */
  get db(): SqlDb {
    return this.t.db;
  }

  shares(tbl: string, key: string): ShareRow[] {
    return this.t.db.all(`SELECT ${SHARE_COLS} FROM replica_shares WHERE tbl = ? AND key = ? ORDER BY device`, [tbl, key]).map(toShare);
  }

  share(tbl: string, key: string, device: string): ShareRow | null {
    const r = this.t.db.one(`SELECT ${SHARE_COLS} FROM replica_shares WHERE tbl = ? AND key = ? AND device = ?`, [tbl, key, device]);
    return r ? toShare(r) : null;
  }

  /** One device's shares with a stamp after `after` (its unpublished ones, or all with ''), oldest first. */
  sharesOf(device: string, after = ''): ShareRow[] {
    return this.t.db.all(`SELECT ${SHARE_COLS} FROM replica_shares WHERE device = ? AND stamp > ? ORDER BY stamp`, [device, after]).map(toShare);
  }

  /** Rows that have shares not yet in the local row. */
  pending(): { tbl: string; key: string }[] {
    return this.t.db.all('SELECT DISTINCT tbl, key FROM replica_shares WHERE applied = 0 ORDER BY tbl, key').map((r) => ({ tbl: String(r[0]), key: String(r[1]) }));
  }

  /** One device's newest stamp, or null when it has no share (the index on (device, stamp) answers it). */
  newestOf(device: string): string | null {
    const r = this.t.db.one('SELECT MAX(stamp) FROM replica_shares WHERE device = ?', [device]);
    return r && r[0] !== null ? String(r[0]) : null;
  }

  /** Per device: how many rows it has a share in, and its newest stamp. */
  totals(): { device: string; rows: number; newest: string }[] {
    return this.t.db
      .all('SELECT device, COUNT(*), MAX(stamp) FROM replica_shares GROUP BY device ORDER BY device')
      .map((r) => ({ device: String(r[0]), rows: Number(r[1]), newest: String(r[2]) }));
  }

  devices(): ReplicaDeviceRow[] {
    return this.t.db.all('SELECT device, info FROM replica_devices ORDER BY device').map((r) => ({ device: String(r[0]), info: JSON.parse(String(r[1])) as unknown }));
  }

  /** Applies `plan`'s ops (shares, devices and the learned rows they change) in one journaled mutation. */
  write(plan: () => (Op | ReplicaOp)[]): Promise<void> {
    return this.t.mutate(plan);
  }
}
