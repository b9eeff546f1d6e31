import type { SqlDb } from './sql-db';

/**
 * One device's share of one learned row (shared/replica/fields.ts gives `share` its meaning), keyed by the
 * row's portable key. `applied` is false while the row it belongs to cannot be resolved here yet (a note not
 * synced to this device): the local row does not hold it.
 */
export interface ShareRow {
  device: string;
  tbl: string;
  key: string;
  stamp: string;
  share: unknown;
  applied: boolean;
}

/** A device that has written learned state to this vault (shared/replica/device-sync.ts). */
export interface ReplicaDeviceRow {
  device: string;
  /** Small JSON: its name, when its learning was merged here, what this device last published. */
  info: unknown;
}

/** The replica's own ops, journaled by each store whose rows travel (memory.sqlite, coordination.sqlite). */
export type ReplicaOp =
  /** Devices' shares of learned rows, final state (stores/memory-replica.ts). */
  | { kind: 'shares'; rows: ShareRow[] }
  /** Shares now reflected in the local rows. */
  | { kind: 'shares_applied'; keys: { tbl: string; key: string }[] }
  /** What is known of a device that writes to this vault, final state. */
  | { kind: 'replica_device'; row: ReplicaDeviceRow };

/** The replica's tables, in every store whose rows travel. */
export const REPLICA_DDL = `
-- each device's share of each learned row (shared/replica), by the row's portable key; applied 0: not in the local row yet
CREATE TABLE IF NOT EXISTS replica_shares (
  tbl TEXT NOT NULL,
  key TEXT NOT NULL,
  device TEXT NOT NULL,
  stamp TEXT NOT NULL,
  share TEXT NOT NULL,
  applied INTEGER NOT NULL,
  PRIMARY KEY (tbl, key, device)
);
CREATE INDEX IF NOT EXISTS replica_shares_device ON replica_shares(device, stamp);
CREATE INDEX IF NOT EXISTS replica_shares_pending ON replica_shares(applied);
CREATE TABLE IF NOT EXISTS replica_devices (device TEXT PRIMARY KEY, info TEXT NOT NULL);`;

/** Applies a replica op; false for any other op (the store's own). */
export function applyReplicaOp(db: SqlDb, op: { kind: string }): boolean {
  const o = op as ReplicaOp;
  switch (o.kind) {
    case 'shares':
      for (const r of o.rows) {
        db.run('INSERT OR REPLACE INTO replica_shares (tbl, key, device, stamp, share, applied) VALUES (?, ?, ?, ?, ?, ?)', [
          r.tbl, r.key, r.device, r.stamp, JSON.stringify(r.share), r.applied ? 1 : 0,
        ]);
      }
      return true;
    case 'shares_applied':
      for (const k of o.keys) db.run('UPDATE replica_shares SET applied = 1 WHERE tbl = ? AND key = ? AND applied = 0', [k.tbl, k.key]);
      return true;
    case 'replica_device':
      db.run('INSERT OR REPLACE INTO replica_devices (device, info) VALUES (?, ?)', [o.row.device, JSON.stringify(o.row.info ?? null)]);
      return true;
    default:
      return false;
  }
}
