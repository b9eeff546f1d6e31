import { hostname } from 'node:os';
import { NodeSyncFolder } from './node-sync-folder';
import { nodePost } from './http-post';
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
import { NodeDeviceStore } from './node-device-store';
import type { IndexReport } from '../shared/vault/sync';
import { PERSON, type SessionCaller } from '../shared/session/caller';
import type { MemorySession } from '../shared/session/memory-session';

/**
 * The internal jobs a command may run over the whole vault, unscoped: each is named where the command opens the
 * vault (openJobVault). Every other command acts as the person, through a session (openVault).
 */
export const JOBS = ['index', 'reembed', 'migrate', 'doctor', 'stats', 'consolidate', 'conflict-scan', 'demo', 'mcp', 'git'] as const;
export type JobName = (typeof JOBS)[number];

interface VaultHandle {
  root: string;
  config: VaultConfig;
  blobs: BlobStore;
  /** True when another process holds the writer lock: changes stay in memory and are not persisted. */
  readOnly: boolean;
  /** Brings the index up to date with the files (mtime + size, then content hash). */
  reconcile(): Promise<IndexReport>;
  close(): Promise<void>;
}

/** A vault opened for the person: everything the command reads or writes goes through the person's session. */
export interface OpenedVault extends VaultHandle {
  memory: MemorySession;
  /** Another viewer's session on the same vault (`lithos retrieve --agent`: what that agent would get). */
  as(caller: SessionCaller): Promise<MemorySession>;
}

/** A vault opened for an internal job: the unscoped engine, for the job the command names. */
export interface JobVault extends VaultHandle {
  job: JobName;
  engine: MemoryEngine;
}

export interface OpenVaultOptions {
  /** Commands that change the stores need the single-writer lock; others fall back to read-only. */
  write: boolean;
  logger: Logger;
  onProgress?: (p: { phase: 'load' | 'scan' | 'index'; done: number; total: number }) => void;
  embedders?: Embedder[];
  /** Whether a writer exchanges learned state through the devices folder (docs/devices.md); default true. The demo does not. */
  devices?: boolean;
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

/** Opens a vault headless as the person: the same engine the plugin runs, with Node adapters, behind the person's session. */
export async function openVault(rootArg: string, opts: OpenVaultOptions): Promise<OpenedVault> {
  const { engine, ...handle } = await openEngine(rootArg, opts);
  try {
    return { ...handle, memory: await engine.as(PERSON), as: (caller) => engine.as(caller) };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Opens a vault headless for one internal job over the whole vault (JOBS). */
export async function openJobVault(rootArg: string, job: JobName, opts: OpenVaultOptions): Promise<JobVault> {
  return { ...(await openEngine(rootArg, opts)), job };
}

async function openEngine(rootArg: string, opts: OpenVaultOptions): Promise<VaultHandle & { engine: MemoryEngine }> {
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
      // Only the writer delivers webhooks: a read-only job (beside a live plugin) sees no change of its own.
      post: lock ? nodePost : null,
      // Read-only (another process writes): never edit notes, not even the managed callouts.
      callouts: lock ? (opts.callouts ?? config.callouts) : false,
      device: new NodeDeviceStore(root),
      // Ledger notes without an ID get one from the writers (write commands, the MCP server), never from a
      // read-only look (doctor, search, stats) or a process without the lock.
      assignLedgerIds: lock !== null && (opts.write || opts.lockOwner === 'bridge'),
      // The person's briefing note is kept by the long-running writer (the MCP server), not by one-off commands.
      briefingNote: lock !== null && opts.lockOwner === 'bridge',
      // Only the writer exchanges learned state with other devices: a read-only look writes no device files.
      syncFolder: lock !== null && opts.devices !== false ? (folder: string) => new NodeSyncFolder(root, folder) : null,
      deviceName: `lithos on ${hostname()}`,
    });
    return {
      root,
      engine,
      config,
      blobs,
      readOnly: lock === null,
      reconcile: () => engine.reconcile(),
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
