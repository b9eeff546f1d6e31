/**
 * The single-writer lock file `<vault>/.lithos/lock.json`, shared by every host: the CLI and bridge
 * (bridge/lock.ts, with pid checks) and the Obsidian plugin (plugin/writer-lock.ts, heartbeat only).
 */
export type LockOwner = 'cli' | 'bridge' | 'plugin';

/** Content of the lock file. `token` tells our lock from a later holder's with the same pid. */
export interface LockInfo {
  pid: number;
  hostname: string;
  /** ISO 8601 */
  started_at: string;
  /** ISO 8601, refreshed every LOCK_HEARTBEAT_MS while held. */
  heartbeat_at: string;
  owner: LockOwner;
  token: string;
}

export const LOCK_FILE = 'lock.json';
export const LOCK_STALE_MS = 15_000;
export const LOCK_HEARTBEAT_MS = 5_000;

/** Parses a lock file's bytes; null when it is not a lock (half-written, foreign). */
export function parseLockInfo(bytes: Uint8Array): LockInfo | null {
  try {
    const v = JSON.parse(new TextDecoder().decode(bytes)) as Partial<LockInfo>;
    if (typeof v.heartbeat_at !== 'string' || typeof v.token !== 'string' || typeof v.owner !== 'string') return null;
    return { pid: Number(v.pid) || 0, hostname: String(v.hostname ?? ''), started_at: String(v.started_at ?? ''), heartbeat_at: v.heartbeat_at, owner: v.owner, token: v.token };
  } catch {
    return null;
  }
}

/** A lock whose heartbeat is recent is live, whoever holds it. */
export function heartbeatIsFresh(info: LockInfo, now: number, staleMs = LOCK_STALE_MS): boolean {
  const beat = Date.parse(info.heartbeat_at);
  return Number.isFinite(beat) && now - beat <= staleMs;
}
