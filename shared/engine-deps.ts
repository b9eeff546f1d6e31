/** What a host gives the engine (MemoryEngine.open), and the defaults of what it may leave out. */
import type { SqlJsStatic } from 'sql.js';
import type { HttpPost } from './governance/webhooks';
import { silentLogger, systemClock, systemTimers, type BlobStore, type Clock, type DeviceIdentityStore, type Embedder, type Logger, type SyncFolderPort, type Timers, type VaultPort } from './ports';
import { ephemeralDeviceStore } from './stores/device-identity';

export interface EngineDeps {
  vault: VaultPort;
  blobs: BlobStore;
  sql: SqlJsStatic;
  /** Active embedding spaces; the offline hashing embedder when omitted. */
  embedders?: Embedder[];
  clock?: Clock;
  timers?: Timers;
  logger?: Logger;
  /** Per-path debounce of vault events (ms). */
  debounceMs?: number;
  /** Debounce of store snapshots (ms); the journal covers the gap. */
  persistDebounceMs?: number;
  onProgress?: (p: { phase: 'load' | 'scan' | 'index'; done: number; total: number }) => void;
  /** Managed callout blocks in notes (conflicts, status); default true. `conflicts.setCallouts` changes it live. */
  callouts?: boolean;
  /** HTTP POST for the policy's webhooks (governance/webhooks.ts); without it webhooks are reported, not sent. */
  post?: HttpPost | null;
  /**
   * This device's record, kept outside the vault (ports.ts DeviceIdentityStore): the tag of the ledger IDs it
   * allocates. Without one the engine is a new device at every open (fine for tests, not for a host).
   */
  device?: DeviceIdentityStore;
  /** Whether ledger notes without an ID get one written at index time; default true. False where notes must not change (read-only, doctor). */
  assignLedgerIds?: boolean;
  /**
   * Whether this process keeps the person's briefing note (session/briefing-note.ts) at learning.json's
   * `briefing.path`; default false, so only hosts that mean to (the plugin, `lithos mcp`) write it.
   */
  briefingNote?: boolean;
  /**
   * The devices folder (learning.json `devices.folder`) as this host reaches it: where this device exchanges
   * learned state with the others (shared/replica). Absent: this process exchanges nothing (read-only looks,
   * tests, the demo).
   */
  syncFolder?: ((folder: string) => SyncFolderPort) | null;
  /** How this device is named to the others ("Obsidian on laptop"). */
  deviceName?: string;
}

export type ResolvedDeps = Required<Omit<EngineDeps, 'onProgress' | 'embedders' | 'callouts' | 'post' | 'syncFolder'>> & Pick<EngineDeps, 'onProgress' | 'callouts'> & { post: HttpPost | null; syncFolder: ((folder: string) => SyncFolderPort) | null };

export function withDefaults(deps: EngineDeps): ResolvedDeps {
  return {
    vault: deps.vault,
    blobs: deps.blobs,
    sql: deps.sql,
    clock: deps.clock ?? systemClock,
    timers: deps.timers ?? systemTimers,
    logger: deps.logger ?? silentLogger,
    debounceMs: deps.debounceMs ?? 300,
    persistDebounceMs: deps.persistDebounceMs ?? 2000,
    onProgress: deps.onProgress,
    callouts: deps.callouts,
    post: deps.post ?? null,
    device: deps.device ?? ephemeralDeviceStore(),
    assignLedgerIds: deps.assignLedgerIds ?? true,
    briefingNote: deps.briefingNote ?? false,
    syncFolder: deps.syncFolder ?? null,
    deviceName: deps.deviceName ?? 'this device',
  };
}
