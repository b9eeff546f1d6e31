/** Opening the engine over a folder on disk, with no Obsidian and no watcher, for eval and bench. */
import { join } from 'node:path';
import { MemoryEngine } from '../../shared/engine';
import { silentLogger, type Timers } from '../../shared/ports';
import { NodeBlobStore } from '../node-blob-store';
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

export async function openHeadlessEngine(root: string): Promise<MemoryEngine> {
  return MemoryEngine.open({
    vault: new NodeVault(root),
    blobs: new NodeBlobStore(join(root, '.lithos')),
    sql: await loadSqlJs(),
    logger: silentLogger,
    timers: cliTimers,
    debounceMs: 0,
    persistDebounceMs: NO_AUTO_PERSIST_MS,
  });
}
