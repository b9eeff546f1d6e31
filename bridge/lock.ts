import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import * as os from 'node:os';
import { randomBytes } from 'node:crypto';
import { LithosError } from '../shared/errors';
import { errnoOf, fsError } from './fs-errors';
import { tempSuffix, writeFileAtomic } from './atomic-file';

export type { LockInfo, LockOwner } from '../shared/coordination/lock-info';
import type { LockInfo, LockOwner } from '../shared/coordination/lock-info';

export interface LockOptions {
  owner: LockOwner;
  /** A lock whose heartbeat is older than this is taken over. Default 15 000 ms. */
  staleMs?: number;
  heartbeatMs?: number;
  /** Called once if another process takes the lock over (e.g. we were suspended longer than staleMs). */
  onLost?: (by: LockInfo | null) => void;
}

export interface VaultLock {
  readonly path: string;
  readonly info: LockInfo;
  /** False after release() or once another process has taken the lock over. */
  isHeld(): boolean;
  /**
   * Reads lock.json now and says whether it is still ours (the heartbeat only looks every few seconds):
   * what a writer asks before each write, so that a process that lost the lock stops saving at once.
   */
  confirm(): Promise<boolean>;
  /** Removes lock.json if it is still ours; safe to call twice. */
  release(): Promise<void>;
}

export const LOCK_FILE = 'lock.json';
/** How long a live process on this host may go without a heartbeat before its lock is taken over. */
export const SAME_HOST_SILENT_MS = 10 * 60_000;
const OWNERS: readonly string[] = ['cli', 'bridge', 'plugin'];

/**
 * Takes the single-writer lock of a vault. Only one process may write `.lithos/` at a time; read-only
 * commands may skip this. A stale lock (no heartbeat for staleMs, or its pid is dead on this host) is
 * taken over; a live one makes this throw vault_locked, naming the holder.
 */
export async function acquireLock(lithosDir: string, opts: LockOptions): Promise<VaultLock> {
  const staleMs = opts.staleMs ?? 15_000;
  const heartbeatMs = opts.heartbeatMs ?? 5_000;
  const dir = nodePath.resolve(lithosDir);
  const file = nodePath.join(dir, LOCK_FILE);
  await ensureDir(dir);
  const now = new Date().toISOString();
  const mine: LockInfo = { pid: process.pid, hostname: os.hostname(), started_at: now, heartbeat_at: now, owner: opts.owner, token: randomBytes(8).toString('hex') };

  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await createExclusive(file, JSON.stringify(mine, null, 2));
      return holdLock(file, mine, heartbeatMs, opts.onLost);
    } catch (err) {
      if (errnoOf(err) !== 'EEXIST') throw fsError(err, `create the vault lock "${file}"`, { path: file });
    }
    const current = await readLockFile(file);
    if (current === 'missing') continue; // released in between: try to create again
    if (!isLockStale(current, Date.now(), staleMs)) throw lockedError(dir, current.info, staleMs);
    await removeIfStillStale(file, current, mine.token, staleMs);
    // Then create it exclusively, at the top of the loop: of several processes taking over, one wins.
  }
  throw new LithosError('vault_locked', `Could not take the lock of vault "${nodePath.dirname(dir)}": it kept changing hands. Try again.`, {});
}

/**
 * Removes the lock judged stale, under a short-lived `lock.json.takeover` file that only one process can
 * create: inside it, the lock is read again and removed only if it is still the one judged stale. Without
 * it, a process that judged late could remove the lock another had just taken. Creating lock.json afresh
 * (exclusive, at the top of acquireLock's loop) then picks one winner among those that found it gone.
 */
async function removeIfStillStale(file: string, judged: { info: LockInfo | null; mtimeMs: number }, token: string, staleMs: number): Promise<void> {
  const mutex = `${file}.takeover`;
  try {
    await createExclusive(mutex, token);
  } catch (err) {
    if (errnoOf(err) !== 'EEXIST') throw fsError(err, `take over the vault lock "${file}"`, { path: file });
    // Another process is taking over right now; one that died doing so leaves a file that ages out.
    const st = await fsp.stat(mutex).catch(() => null);
    if (st && Date.now() - st.mtimeMs > staleMs) await fsp.rm(mutex, { force: true }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 25));
    return;
  }
  try {
    const now = await readLockFile(file);
    const same = now !== 'missing' && now.mtimeMs === judged.mtimeMs && (now.info?.token ?? null) === (judged.info?.token ?? null);
    if (same) await fsp.rm(file, { force: true });
  } finally {
    await fsp.rm(mutex, { force: true }).catch(() => undefined);
  }
}

/** Whether acquireLock would find the lock free now: absent, or stale by isLockStale's rules. */
export async function lockLooksFree(lithosDir: string, staleMs = 15_000): Promise<boolean> {
  const r = await readLockFile(nodePath.join(nodePath.resolve(lithosDir), LOCK_FILE));
  return r === 'missing' || isLockStale(r, Date.now(), staleMs);
}

/** The current holder, or null when there is no (readable) lock. For `lithos doctor`/`stats`. */
export async function readLock(lithosDir: string): Promise<LockInfo | null> {
  const r = await readLockFile(nodePath.join(nodePath.resolve(lithosDir), LOCK_FILE));
  return r === 'missing' ? null : r.info;
}

/**
 * Stale = heartbeat older than staleMs, or the pid is gone on this very host. `info` null means the
 * file is unreadable/half-written: stale only once its mtime is old (its writer may be mid-way).
 */
export function isLockStale(lock: { info: LockInfo | null; mtimeMs: number }, now: number, staleMs: number): boolean {
  const { info } = lock;
  if (!info) return now - lock.mtimeMs > staleMs;
  const beat = Date.parse(info.heartbeat_at);
  const silent = !Number.isFinite(beat) ? Infinity : now - beat;
  if (info.hostname === os.hostname()) {
    // On this host the process table is the truth: a live holder whose heartbeat stalled (suspended, or
    // the machine just woke up) keeps its lock — taking it would leave two writers. Only a lock from
    // before this boot is stale whatever its pid, since that pid now belongs to someone else; and one
    // silent for SAME_HOST_SILENT_MS, whose pid is most likely another program's by now (should the
    // holder still be alive, its fenced writes stop at once: bridge/fenced-blobs.ts).
    if (!pidAlive(info.pid)) return true;
    const started = Date.parse(info.started_at);
    if (Number.isFinite(started) && started < now - os.uptime() * 1000) return true;
    return silent > Math.max(SAME_HOST_SILENT_MS, staleMs);
  }
  return silent > staleMs;
}

function holdLock(file: string, info: LockInfo, heartbeatMs: number, onLost: LockOptions['onLost']): VaultLock {
  let held = true;
  let released = false;
  let inflight: Promise<void> = Promise.resolve();

  /** Whether lock.json still carries our token; the first time it does not, the lock is lost for good. */
  const stillOurs = async (): Promise<boolean> => {
    const current = await readLockFile(file);
    if (!held) return false;
    if (current !== 'missing' && current.info?.token === info.token) return true;
    held = false;
    clearInterval(timer);
    detach();
    onLost?.(current === 'missing' ? null : current.info);
    return false;
  };
  const beat = async (): Promise<void> => {
    if (!(await stillOurs())) return;
    const next = { ...info, heartbeat_at: new Date().toISOString() };
    await writeFileAtomic(file, `${file}.${tempSuffix()}`, JSON.stringify(next, null, 2), 0o600);
  };
  const timer = setInterval(() => {
    // One beat at a time; a failed beat (disk hiccup) is retried by the next tick.
    inflight = inflight.then(beat).catch(() => undefined);
  }, heartbeatMs);
  timer.unref();

  // Best effort on the way out: 'exit' handlers must be synchronous.
  const releaseSync = (): void => {
    if (!held) return;
    held = false;
    try {
      const parsed = parseLock(fs.readFileSync(file, 'utf8'));
      if (parsed?.token === info.token) fs.unlinkSync(file);
    } catch {
      // nothing we can do while exiting
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    // Another handler (lithos mcp) stops in order — finishes calls, flushes, then releases: releasing here
    // first would let the next writer in while this one still writes. The 'exit' handler stays as a net.
    if (process.listenerCount(signal) > 1) return;
    releaseSync();
    detach();
    // Adding a listener disabled Node's default "exit on signal"; restore it unless someone else handles it.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const detach = (): void => {
    process.off('exit', releaseSync);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('exit', releaseSync);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  return {
    path: file,
    info,
    isHeld: () => held,
    confirm: async () => held && (await stillOurs()),
    release: async () => {
      if (released) return;
      released = true;
      const wasHeld = held;
      held = false;
      clearInterval(timer);
      detach();
      await inflight;
      if (!wasHeld) return;
      const current = await readLockFile(file);
      if (current !== 'missing' && current.info?.token === info.token) {
        await fsp.rm(file, { force: true }).catch((err) => {
          throw fsError(err, `remove the vault lock "${file}"`, { path: file });
        });
      }
    },
  };
}

function lockedError(dir: string, info: LockInfo | null, staleMs: number): LithosError {
  const root = nodePath.dirname(dir);
  const here = info === null || info.hostname === os.hostname();
  // On this host a lock is taken over only once its process is gone; from another host, once it is silent.
  const rule = here && info
    ? 'the lock is taken over automatically once that process has ended (or has sent no heartbeat for 10 minutes).'
    : `a lock without heartbeat for ${Math.round(staleMs / 1000)} s is taken over automatically.`;
  if (!info) {
    return new LithosError('vault_locked', `Vault "${root}" is being locked by another lithos process right now. Close it or wait; ${rule}`, { pid: null, owner: null });
  }
  const host = info.hostname === os.hostname() ? '' : ` on ${info.hostname}`;
  if (info.owner === 'plugin') {
    // The usual case for a person: Obsidian is open. Say what works meanwhile instead of "close it or wait".
    return new LithosError(
      'vault_locked',
      `Vault "${root}" is open in Obsidian${host} (the Lithos Memory plugin holds its memory, since ${info.started_at}). This command writes the memory, so it needs Obsidian closed or the plugin turned off; meanwhile search, stats, doctor, receipts, conflicts, proposals and audit verify work read-only, retrieve goes through Obsidian's agents bridge when it is on, and agents reach the vault through lithos mcp.`,
      { pid: info.pid, owner: info.owner, hostname: info.hostname, started_at: info.started_at },
    );
  }
  return new LithosError(
    'vault_locked',
    `Vault "${root}" is being written by another lithos process (pid ${info.pid}${host}, ${info.owner}, since ${info.started_at}). Close it or wait; ${rule}`,
    { pid: info.pid, owner: info.owner, hostname: info.hostname, started_at: info.started_at },
  );
}

async function createExclusive(file: string, text: string): Promise<void> {
  const h = await fsp.open(file, 'wx', 0o600);
  try {
    await h.writeFile(text);
    await h.sync();
  } catch (err) {
    await h.close().catch(() => undefined);
    await fsp.rm(file, { force: true }).catch(() => undefined); // never leave a half-written lock behind
    throw err;
  }
  await h.close();
}

async function readLockFile(file: string): Promise<'missing' | { info: LockInfo | null; mtimeMs: number }> {
  try {
    const [text, st] = await Promise.all([fsp.readFile(file, 'utf8'), fsp.stat(file)]);
    return { info: parseLock(text), mtimeMs: st.mtimeMs };
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return 'missing';
    throw fsError(err, `read the vault lock "${file}"`, { path: file });
  }
}

function parseLock(text: string): LockInfo | null {
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    const ok =
      Number.isInteger(v.pid) && (v.pid as number) > 0 && typeof v.hostname === 'string' && typeof v.started_at === 'string' &&
      typeof v.heartbeat_at === 'string' && typeof v.owner === 'string' && OWNERS.includes(v.owner);
    // Locks written by hand or by an older version may lack a token: they can never be "ours".
    return ok ? ({ ...v, token: typeof v.token === 'string' ? v.token : '' } as LockInfo) : null;
  } catch {
    return null;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoOf(err) === 'EPERM'; // exists, just not ours to signal
  }
}

/** `.lithos/` is created if needed, but never the vault folder itself. */
async function ensureDir(dir: string): Promise<void> {
  const root = nodePath.dirname(dir);
  const ok = await fsp.stat(root).then((s) => s.isDirectory(), () => false);
  if (!ok) throw new LithosError('vault_unavailable', `The vault folder "${root}" is missing or is not a folder.`, { root });
  await fsp.mkdir(dir, { mode: 0o700 }).catch((err) => {
    if (errnoOf(err) !== 'EEXIST') throw fsError(err, `create "${dir}"`, { path: dir });
  });
}
