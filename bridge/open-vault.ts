import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BlobStore, Embedder, Logger } from '../shared/ports';
import { MemoryEngine } from '../shared/engine';
import { LithosError } from '../shared/errors';
import { NodeVault } from './node-vault';
import { NodeBlobStore } from './node-blob-store';
import { acquireLock, type LockOwner, type VaultLock } from './lock';
import { FencedBlobStore, LockFence } from './fenced-blobs';
import { loadSqlJs } from './sql';
import { readConfig, type VaultConfig } from './config';
import { createEmbedder } from './embedders';
import { ReadOnlyBlobStore } from './read-only-blobs';

export interface OpenedVault {
  root: string;
  engine: MemoryEngine;
  config: VaultConfig;
  blobs: BlobStore;
  /** True when another process holds the writer lock: changes stay in memory and are not persisted. */
  readOnly: boolean;
  close(): Promise<void>;
}

export interface OpenVaultOptions {
  /** Commands that change the stores need the single-writer lock; others fall back to read-only. */
  write: boolean;
  logger: Logger;
  onProgress?: (p: { phase: 'load' | 'scan' | 'index'; done: number; total: number }) => void;
  embedders?: Embedder[];
  /** Who the lock file names as holder; default `cli`. `lithos mcp` runs as `bridge`. */
  lockOwner?: LockOwner;
  /** Overrides config.json's `callouts` for this run (the demo finds conflicts without editing the notes). */
  callouts?: boolean;
}

/** Refuses a missing or unreadable vault with a one-line message. */
export async function checkVaultFolder(rootArg: string): Promise<string> {
  if (!rootArg) throw new LithosError('invalid_argument', 'Missing <vault>: give the path of an Obsidian vault folder.');
  const root = resolve(rootArg);
  try {
    const s = await stat(root);
    if (!s.isDirectory()) throw new LithosError('vault_unavailable', `"${rootArg}" is not a folder; give the path of a vault folder.`);
  } catch (err) {
    if (err instanceof LithosError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new LithosError('vault_unavailable', `Vault folder "${rootArg}" does not exist.`);
    if (code === 'EACCES') throw new LithosError('vault_unavailable', `Vault folder "${rootArg}" is not readable (permission denied).`);
    throw new LithosError('vault_unavailable', `Cannot open vault folder "${rootArg}": ${(err as Error).message}`);
  }
  return root;
}

/** Opens the engine headless over a vault folder: the same engine the plugin runs, with Node adapters. */
export async function openVault(rootArg: string, opts: OpenVaultOptions): Promise<OpenedVault> {
  const root = await checkVaultFolder(rootArg);
  const diskBlobs = new NodeBlobStore(join(root, '.lithos'));
  let lock: VaultLock | null = null;
  try {
    lock = await acquireLock(join(root, '.lithos'), {
      owner: opts.lockOwner ?? 'cli',
      onLost: (by) => opts.logger.error(`Another process${by ? ` (pid ${by.pid} on ${by.hostname}, ${by.owner})` : ''} took over the writer lock of "${root}"; this process saves nothing more. Restart it.`),
    });
  } catch (err) {
    if (opts.write || !(err instanceof LithosError) || err.code !== 'vault_locked') throw err;
    opts.logger.warn(`${err.message} Continuing read-only: nothing will be saved.`);
  }
  const fence = lock ? new LockFence(lock) : null;
  const blobs: BlobStore = fence ? new FencedBlobStore(diskBlobs, fence) : new ReadOnlyBlobStore(diskBlobs);
  // The writer clears what crashed writes left (temp files over an hour old): they would sync and pile up.
  if (lock) await diskBlobs.sweepTemps().catch(() => 0);
  try {
    const config = await readConfig(blobs, (m) => opts.logger.warn(m));
    const embedders =
      opts.embedders ??
      (await Promise.all(config.embedding_spaces.map((s) => createEmbedder(s, { vaultRoot: root, config, logger: opts.logger }))));
    const engine = await MemoryEngine.open({
      // Notes are fenced like the stores: a writer that lost the lock must not write Markdown either.
      vault: new NodeVault(root, { sweepTemps: lock !== null, ...(fence ? { beforeChange: (what: string) => fence.check(what) } : {}) }),
      blobs,
      sql: await loadSqlJs(),
      embedders,
      logger: opts.logger,
      onProgress: opts.onProgress,
      debounceMs: 0,
      // Read-only (another process writes): never edit notes, not even the managed callouts.
      callouts: lock ? (opts.callouts ?? config.callouts) : false,
    });
    return {
      root,
      engine,
      config,
      blobs,
      readOnly: lock === null,
      close: async () => {
        try {
          await engine.close();
        } finally {
          await lock?.release();
        }
      },
    };
  } catch (err) {
    await lock?.release();
    throw err;
  }
}
