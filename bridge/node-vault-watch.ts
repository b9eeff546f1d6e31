import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { Logger, VaultEvent } from '../shared/ports';
import { isExcludedPath, toApiPath, type WalkedNote } from './vault-walk';

export type WatchMode = 'auto' | 'native' | 'poll';

/** How many recently changed notes the Linux re-check follows (one stat each per poll interval). */
const REPLACED_MAX = 1000;

/** What the watcher needs from the vault adapter. */
export interface WatchHost {
  readonly root: string;
  readonly ignore?: (path: string) => boolean;
  readonly logger: Logger;
  /** Notes under the whole vault or one raw sub-folder; throws when the vault is gone. */
  scan(underRaw?: string): Promise<WalkedNote[]>;
  /** What is at a raw relative path, judged without following symlinks anywhere along it. */
  probe(raw: string): Promise<{ kind: 'note'; note: WalkedNote } | { kind: 'dir' } | { kind: 'none' }>;
  isAvailable(): Promise<boolean>;
}

/** The unsubscribe function, plus `ready`: resolves once the baseline listing is taken (tests await it). */
export type Unwatch = (() => void) & { readonly ready: Promise<void>; readonly mode: 'native' | 'poll' };

interface Stamp {
  mtimeMs: number;
  size: number;
}

/**
 * Turns file-system notifications into create/modify/delete events for notes, by diffing against a
 * known map (path → mtime/size). fs.watch's 'rename' is ambiguous and folder moves arrive as one event
 * for the folder, so every notification is resolved by looking at the disk. Renames surface as
 * delete + create; the engine pairs them by content hash. Deletes are never reported while the vault
 * folder itself is missing: an unmounted drive must not look like "the user deleted everything".
 */
export function startWatch(host: WatchHost, listener: (e: VaultEvent) => void, mode: WatchMode, pollMs: number): Unwatch {
  const known = new Map<string, Stamp>();
  let closed = false;
  let baselineDone = false;
  let chain: Promise<void> = Promise.resolve();
  let watcher: fs.FSWatcher | undefined;
  let pollTimer: ReturnType<typeof setInterval> | undefined;
  let polling = false;
  // Linux: Node's recursive fs.watch keeps watching a file's old inode once the file is replaced by a
  // rename (atomic saves: editors, our own writes), so later edits, renames and deletes of it go unseen;
  // and the replacement is reported as a plain 'change', so it cannot be told apart. Notes changed since
  // the watch began are therefore also stat-checked each poll interval.
  // Most recently changed first out of a bounded set (REPLACED_MAX), checked with one stat each; a full
  // reconcile every SWEEP_MS catches whatever fell out of it.
  const replaced = new Set<string>();
  const watchesInodes = process.platform === 'linux';
  let checkingReplaced = false;

  const emit = (e: VaultEvent): void => {
    if (closed) return;
    try {
      listener(e);
    } catch (err) {
      host.logger.error('vault watch listener threw', { error: String(err) });
    }
  };

  const enqueue = (task: () => Promise<void>): void => {
    chain = chain.then(task).catch((err) => host.logger.warn('vault watch: could not process a change', { error: String(err) }));
  };

  const upsert = (n: WalkedNote, force: boolean): void => {
    const prev = known.get(n.path);
    known.set(n.path, { mtimeMs: n.mtimeMs, size: n.size });
    if (!prev) emit({ kind: 'create', path: n.path });
    else if (force || prev.mtimeMs !== n.mtimeMs || prev.size !== n.size) emit({ kind: 'modify', path: n.path });
  };

  /** Reconciles `known` under folder `prefix` ('' = whole vault, else ending in '/') with a fresh listing. */
  const reconcile = async (prefix: string, fresh: WalkedNote[], force: boolean): Promise<void> => {
    const seen = new Set<string>();
    for (const n of fresh) {
      seen.add(n.path);
      upsert(n, force);
    }
    const gone = [...known.keys()].filter((p) => !seen.has(p) && (prefix === '' || p.startsWith(prefix)));
    if (gone.length > 0 && !(await host.isAvailable())) return rootLost();
    for (const p of gone) {
      known.delete(p);
      emit({ kind: 'delete', path: p });
    }
  };

  const handle = async (raw: string | null, force: boolean): Promise<void> => {
    if (closed) return;
    if (raw === null) return reconcile('', await host.scan(), force); // the OS didn't say what changed
    const rel = toApiPath(raw);
    if (isExcludedPath(rel, host.ignore)) return;
    const what = await host.probe(raw);
    if (what.kind === 'note') {
      if (watchesInodes && watcher) {
        replaced.delete(raw); // re-inserted as the newest
        replaced.add(raw);
        if (replaced.size > REPLACED_MAX) replaced.delete(replaced.values().next().value as string);
      }
      return upsert(what.note, force);
    }
    replaced.delete(raw);
    if (what.kind === 'dir') return reconcile(`${rel}/`, await host.scan(raw), force);
    // Gone (or replaced by something that is not a note): forget it and anything that was below it.
    if (!known.has(rel) && ![...known.keys()].some((p) => p.startsWith(`${rel}/`))) return;
    if (!(await host.isAvailable())) return rootLost();
    for (const p of [...known.keys()]) {
      if (p === rel || p.startsWith(`${rel}/`)) {
        known.delete(p);
        emit({ kind: 'delete', path: p });
      }
    }
  };

  const startPolling = (): void => {
    if (pollTimer || closed) return;
    pollTimer = setInterval(() => {
      if (polling || !baselineDone) return; // a slow scan must not pile up behind itself
      polling = true;
      enqueue(async () => {
        try {
          if (!(await host.isAvailable())) return;
          // The vault is back (or was never lost): try native watching again before catching up.
          if (mode !== 'poll' && !watcher && startNative()) stopPolling();
          await reconcile('', await host.scan(), false);
        } finally {
          polling = false;
        }
      });
    }, pollMs);
  };

  const stopPolling = (): void => {
    if (pollTimer) clearInterval(pollTimer);
    pollTimer = undefined;
  };

  /**
   * The root was deleted, moved or unmounted: inotify keeps watching the old folder (or nothing), so
   * switch to polling, which notices when the vault comes back and catches up by diffing.
   */
  const rootLost = (): void => {
    if (!watcher || closed) return;
    host.logger.warn('vault watch: the vault folder is gone; polling until it is back');
    watcher.close();
    watcher = undefined;
    startPolling();
  };

  const startNative = (): boolean => {
    try {
      // Started before the baseline scan so that nothing changing during the scan is lost.
      const w = fs.watch(host.root, { recursive: true }, (_type, filename) => {
        if (w !== watcher) return;
        const force = !baselineDone; // arrived before the baseline: report it even if the stamp matches
        const raw = filename === null ? null : String(filename);
        enqueue(() => handle(raw, force));
      });
      w.on('error', (err) => {
        host.logger.warn('vault watch: native watcher failed, falling back to polling', { error: String(err) });
        w.close();
        if (w === watcher) watcher = undefined;
        startPolling();
      });
      watcher = w;
      return true;
    } catch (err) {
      if (mode === 'native' && (err as { code?: string }).code === 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM') throw err;
      host.logger.info('vault watch: recursive fs.watch not possible now, polling instead', { error: String(err) });
      return false;
    }
  };

  if (mode !== 'poll') startNative();

  // Native mode also checks now and then that the root is still there: an unmount may send no event.
  const healthTimer = setInterval(() => {
    if (watcher) void host.isAvailable().then((ok) => ok || rootLost());
  }, Math.max(pollMs * 5, 200));
  healthTimer.unref();

  const replacedTimer = setInterval(() => {
    if (!watcher || replaced.size === 0 || checkingReplaced) return;
    checkingReplaced = true;
    enqueue(async () => {
      try {
        for (const raw of [...replaced]) {
          // One stat; the full look (symlinks, folders) only when something changed.
          const st = await fs.promises.stat(nodePath.join(host.root, raw)).catch(() => null);
          const was = known.get(toApiPath(raw));
          if (!st || !was || st.mtimeMs !== was.mtimeMs || st.size !== was.size) await handle(raw, false);
        }
      } finally {
        checkingReplaced = false;
      }
    });
  }, pollMs);
  replacedTimer.unref();
  const sweepTimer = setInterval(() => {
    if (!watcher || !watchesInodes || polling) return;
    enqueue(async () => {
      if (await host.isAvailable()) await reconcile('', await host.scan(), false);
    });
  }, Math.max(pollMs * 300, 1000));
  sweepTimer.unref();

  const ready = host.scan().then(
    (notes) => {
      for (const n of notes) if (!known.has(n.path)) known.set(n.path, { mtimeMs: n.mtimeMs, size: n.size });
      baselineDone = true;
    },
    (err) => {
      // Vault unavailable at start: the first successful poll becomes the baseline (reported as creates).
      host.logger.warn('vault watch: baseline listing failed', { error: String(err) });
      baselineDone = true;
      rootLost();
      startPolling();
    },
  );
  chain = ready;
  if (!watcher) startPolling();

  const unwatch = (() => {
    closed = true;
    watcher?.close();
    watcher = undefined;
    stopPolling();
    clearInterval(healthTimer);
    clearInterval(replacedTimer);
    clearInterval(sweepTimer);
  }) as Unwatch;
  Object.defineProperty(unwatch, 'ready', { value: ready });
  Object.defineProperty(unwatch, 'mode', { get: () => (watcher ? 'native' : 'poll') });
  return unwatch;
}
