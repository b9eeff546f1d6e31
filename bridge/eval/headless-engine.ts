/** Opening the engine over a folder on disk, with no Obsidian and no watcher, for eval and bench. */
import { join } from 'node:path';
import { MemoryEngine } from '../../shared/engine';
import { silentLogger, type Clock, type DeviceIdentityStore, type Embedder, type Timers } from '../../shared/ports';
import { NodeBlobStore } from '../node-blob-store';
import { NodeSyncFolder } from '../node-sync-folder';
import { NodeVault } from '../node-vault';
import { loadSqlJs } from '../sql';

/**
 * Long timers (snapshot debounce) are unref'd so a forgotten one cannot keep the CLI alive;
 * short ones (event debounce) stay ref'd because `settle()` may be waiting on them.
 */
export const cliTimers: Timers = {
  setTimeout(fn, ms) {
    const h = setTimeout(fn, ms);
    if (ms >= 1000) h.unref();
    return h;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Snapshots are written only by explicit flush()/close(), so they never land inside a timed section. */
const NO_AUTO_PERSIST_MS = 24 * 60 * 60 * 1000;

/**
 * The eval's "now": fixed, so a run does not depend on the day it is made (recency, decay and learning
 * stamps all read the clock). Corpus files get this time minus a day as their mtime (corpus-vault.ts).
 */
export const EVAL_NOW_MS = Date.UTC(2026, 10, 1);
export const evalClock: Clock = { now: () => EVAL_NOW_MS };

/** `devices`: exchange learned state through the vault's devices folder as this device (docs/devices.md); off by default. */
export async function openHeadlessEngine(root: string, opts: { clock?: Clock; embedders?: Embedder[]; devices?: { record: DeviceIdentityStore; name: string } } = {}): Promise<MemoryEngine> {
  return MemoryEngine.open({
    clock: opts.clock,
    embedders: opts.embedders,
    vault: new NodeVault(root),
    blobs: new NodeBlobStore(join(root, '.lithos')),
    sql: await loadSqlJs(),
    logger: silentLogger,
    timers: cliTimers,
    debounceMs: 0,
    persistDebounceMs: NO_AUTO_PERSIST_MS,
    ...(opts.devices && { syncFolder: (folder: string) => new NodeSyncFolder(root, folder), device: opts.devices.record, deviceName: opts.devices.name }),
  });
}
