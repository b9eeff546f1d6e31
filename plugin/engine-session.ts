import type { HttpPost } from '../shared/governance/webhooks';
import type { CallHost } from '../shared/tools/types';
import type { App, EventRef } from 'obsidian';
import { MemoryEngine, type IndexReport } from '../shared/engine';
import { asLithosError, LithosError } from '../shared/errors';
import type { Logger, VaultEvent } from '../shared/ports';
import { systemClock, systemTimers } from '../shared/ports';
import { HeartbeatLock } from '../shared/coordination/heartbeat-lock';
import { PERSON } from '../shared/session/caller';
import type { MemorySession } from '../shared/session/memory-session';
import { ObsidianVault } from './obsidian-vault';
import { ObsidianBlobStore } from './obsidian-blob-store';
import { ObsidianDeviceStore } from './obsidian-device-store';
import { ObsidianSyncFolder } from './obsidian-sync-folder';
import { followDevices } from './follow-devices';
import { loadSql } from './sql-loader';
import type { LithosStatus } from './status-bar';
import { engineControls, type EngineControls } from './engine-controls';
import { startGitHistory, type ObsidianGitSource } from './obsidian-git-log';

export interface EngineSessionDeps {
  app: App;
  /** Whether the vault's disk ignores case in names (VaultPort.caseInsensitive); asked when the memory opens. */
  caseInsensitive?: () => boolean;
  registerEvent(ref: EventRef): void;
  logger: Logger;
  status(s: LithosStatus): void;
  /** The engine came or went ('engine'), or what it indexes changed ('index'). */
  changed(what: 'engine' | 'index'): void;
  /** Failures the person must hear about (a Notice). */
  notify(message: string): void;
  /** Engine options taken from the settings when it opens. */
  callouts(): boolean;
  /** How this device is named to the person's other devices (device-name.ts). */
  deviceName?: string;
  /** After every exchange with the other devices: the status line about the last merge, or null (devices-status.ts). */
  devicesStatus?(line: string | null): void;
  /** HTTP POST for the policy's webhooks (Obsidian's requestUrl); absent: webhooks are not sent. */
  post?: HttpPost;
  /** How this platform reads git repositories (obsidian-git-log.ts): a source on desktop, the reason there is none on mobile. */
  git?(): ObsidianGitSource;
  /** Runs once the engine is open, before the first scan (schedules, bridge). */
  opened(controls: EngineControls): void;
  /** The crash-loop guard: called before the engine opens and after the first scan ends. */
  indexingStarted(): Promise<void>;
  indexingEnded(): Promise<void>;
}

/**
 * One engine over the vault for the plugin's lifetime: waits for the single-writer lock, opens the stores,
 * follows vault events, runs scans one at a time and keeps the status bar current. It also holds the
 * person's memory session, which the panels and commands work through.
 */
export class EngineSession {
  private current: MemoryEngine | null = null;
  private person: MemorySession | null = null;
  private openControls: EngineControls | null = null;
  private lock: HeartbeatLock | null = null;
  private closed = false;
  private refreshing = false;
  private stale = false;
  private reconciling: Promise<void> | null = null;
  private starting: Promise<void> | null = null;
  private unfollowDevices: (() => void) | null = null;
  /** Why the engine could not be opened; shown by commands instead of "still opening". */
  error: string | null = null;

  constructor(private readonly deps: EngineSessionDeps) {}

  get engine(): MemoryEngine | null {
    return this.current;
  }

  /** What settings, schedules and commands change on the open engine (engine-controls.ts). */
  get controls(): EngineControls | null {
    return this.openControls;
  }

  /** The person's memory session while the engine is open. */
  get memory(): MemorySession | null {
    return this.person;
  }

  /** What a tool call runs on (the dispatcher opens the caller's session over it); unavailable while the engine opens. */
  toolHost(): CallHost {
    if (!this.current) throw new LithosError('unavailable', 'Lithos is still opening its memory in Obsidian; try again in a moment.', { retryable: true });
    return { gateway: this.current };
  }

  /** The engine's clock, or the system's while there is none. */
  now(): number {
    return this.current?.services.clock.now() ?? Date.now();
  }

  get scanning(): boolean {
    return this.reconciling !== null;
  }

  /** Opens the engine and runs the first scan; a second call while one is under way joins it. */
  start(): Promise<void> {
    if (this.closed || this.current) return Promise.resolve();
    this.starting ??= this.open().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async open(): Promise<void> {
    try {
      const blobs = new ObsidianBlobStore(this.deps.app.vault.adapter);
      if (!(await this.acquireLock(blobs))) return;
      await this.deps.indexingStarted();
      const vault = new ObsidianVault(this.deps.app, (ref) => this.deps.registerEvent(ref), () => void this.reconcile(), this.deps.caseInsensitive?.() ?? false);
      const engine = await MemoryEngine.open({
        vault,
        blobs,
        sql: await loadSql(),
        logger: this.deps.logger,
        callouts: this.deps.callouts(),
        post: this.deps.post ?? null,
        device: new ObsidianDeviceStore(this.deps.app),
        // Learned state travels with the vault through the devices folder (docs/devices.md); this process holds the lock.
        syncFolder: (folder) => new ObsidianSyncFolder(this.deps.app.vault.adapter, folder),
        ...(this.deps.deviceName ? { deviceName: this.deps.deviceName } : {}),
        briefingNote: true, // the person's briefing note (docs/ledger.md → Briefing)
        onProgress: (p) => this.deps.status({ state: 'progress', ...p }),
      });
      // The person sees every note whatever the policy says, so one session serves as long as the engine is open.
      const memory = await engine.as(PERSON).catch(async (err: unknown) => {
        await engine.close().catch(() => undefined);
        await this.releaseLock();
        throw err;
      });
      if (this.closed) {
        await engine.close();
        await this.releaseLock();
        return;
      }
      this.current = engine;
      this.person = memory;
      // Git history: the source is set now, the first index runs after the first scan (a commit links notes).
      const git = this.deps.git ? startGitHistory(engine.services.learning, this.deps.git(), this.deps.logger) : undefined;
      const controls = (this.openControls = { ...engineControls(engine.services), git });
      this.error = null;
      // Learned data lost to a damaged file is said out loud, not only in the console (also audited).
      for (const loss of engine.losses) this.deps.notify(`Lithos: ${loss.message}`);
      this.deps.opened(controls);
      // Follow the vault before the first scan, so an edit made while it runs is not missed.
      vault.watch((e) => this.onVaultEvent(engine, e));
      this.unfollowDevices = followDevices(engine.services.devices, this.deps.app.vault, (ref) => this.deps.registerEvent(ref), (line) => this.deps.devicesStatus?.(line));
      this.deps.changed('engine');
      await this.reconcile();
      if (!this.closed) await engine.services.conflicts.followPolicy();
      if (!this.closed) void git?.indexNow();
    } catch (err) {
      this.error = this.fail('Lithos could not open its memory', err);
    } finally {
      if (!this.closed) await this.deps.indexingEnded().catch(() => undefined);
    }
  }

  /** One scan at a time: a rebuild requested during a scan joins it. */
  reconcile(): Promise<void> {
    const engine = this.current;
    if (!engine) return Promise.resolve();
    this.reconciling ??= engine
      .reconcile()
      .then((report: IndexReport) => {
        if (report.errors.length) this.deps.logger.warn(`${report.errors.length} note(s) could not be indexed`, { errors: report.errors });
        if (this.current === engine) this.showReady(engine);
      })
      .catch((err: unknown) => {
        this.fail('Lithos could not index the vault', err);
      })
      .finally(() => {
        this.reconciling = null;
        if (this.current === engine) this.deps.changed('index');
      });
    return this.reconciling;
  }

  /** Closes the engine (its journal covers a flush cut short by quitting) and releases the lock. */
  async close(): Promise<void> {
    this.closed = true;
    const engine = this.current;
    this.current = null;
    this.person = null;
    this.openControls = null;
    this.unfollowDevices?.();
    this.unfollowDevices = null;
    // Still opening: start() sees `closed`, closes the engine and releases the lock itself.
    if (!engine) return;
    this.deps.changed('engine');
    try {
      await engine.close();
    } catch (err) {
      this.deps.logger.error('closing the engine failed', { error: asLithosError(err).toJSON() });
    } finally {
      await this.releaseLock();
    }
  }

  showReady(engine: MemoryEngine): void {
    const notes = engine.stats().notes;
    this.deps.status({ state: 'ready', notes: typeof notes === 'number' ? notes : 0 });
  }

  private async releaseLock(): Promise<void> {
    const lock = this.lock;
    this.lock = null;
    await lock?.release().catch(() => undefined);
  }

  /** The stores have one writer at a time: wait while a `lithos` CLI command holds the vault. */
  private async acquireLock(blobs: ObsidianBlobStore): Promise<boolean> {
    const lock = new HeartbeatLock(blobs, systemClock, systemTimers, 'plugin', (by) => {
      this.fail('Lithos lost its write lock', new LithosError('vault_locked', `Another process (${by?.owner ?? 'unknown'}) took over this vault's memory; reload the plugin.`));
    });
    for (;;) {
      const holder = await lock.tryAcquire();
      if (this.closed) {
        await lock.release();
        return false;
      }
      if (!holder) break;
      this.deps.status({ state: 'waiting', holder: `${holder.owner}${holder.pid ? ` (pid ${holder.pid})` : ''}` });
      await new Promise((r) => window.setTimeout(r, 5000));
    }
    this.lock = lock;
    return true;
  }

  private onVaultEvent(engine: MemoryEngine, e: VaultEvent): void {
    if (this.current !== engine) return; // closing
    engine.handleEvent(e);
    this.stale = true;
    if (!this.refreshing && !this.reconciling) {
      const notes = engine.stats().notes;
      this.deps.status({ state: 'stale', notes: typeof notes === 'number' ? notes : 0 });
    }
    if (!this.refreshing) void this.refreshWhenSettled(engine);
  }

  /** One status refresh per burst of events, once the engine has indexed them all. */
  private async refreshWhenSettled(engine: MemoryEngine): Promise<void> {
    this.refreshing = true;
    try {
      while (this.stale) {
        this.stale = false;
        await engine.idle();
      }
      // A running scan reports its own progress and ends with "ready".
      if (this.current === engine && !this.reconciling) {
        this.showReady(engine);
        this.deps.changed('index');
      }
    } catch (err) {
      this.fail('Lithos could not index a change', err);
    } finally {
      this.refreshing = false;
    }
  }

  /** Logs, shows the error in the status bar and a notice; returns the message shown. */
  private fail(what: string, err: unknown): string {
    const e = asLithosError(err);
    const message = `${what}: ${e.message}`;
    this.deps.logger.error(what, { error: e.toJSON() });
    this.deps.status({ state: 'error', message });
    this.deps.notify(message);
    return message;
  }
}
