import { Notice, Plugin } from 'obsidian';
import { MemoryEngine, type IndexReport } from '../shared/engine';
import { asLithosError } from '../shared/errors';
import type { VaultEvent } from '../shared/ports';
import { ObsidianVault } from './obsidian-vault';
import { ObsidianBlobStore } from './obsidian-blob-store';
import { loadSql } from './sql-loader';
import { createConsoleLogger } from './console-logger';
import { StatusBar } from './status-bar';
import { SearchModal } from './search-modal';
import { HeartbeatLock } from '../shared/coordination/heartbeat-lock';
import { LithosError } from '../shared/errors';
import { systemClock, systemTimers } from '../shared/ports';

/** Composition root: wires Obsidian's vault and adapter into the host-free engine; only lifecycle and status plumbing here. */
export default class LithosMemoryPlugin extends Plugin {
  private readonly logger = createConsoleLogger();
  private engine: MemoryEngine | null = null;
  private lock: HeartbeatLock | null = null;
  private status: StatusBar | null = null;
  private unloaded = false;
  private refreshing = false;
  private statusStale = false;
  private reconciling: Promise<void> | null = null;
  /** Why the engine could not be opened, shown by commands instead of "still opening". */
  private openError: string | null = null;

  override onload(): void {
    this.status = new StatusBar(this.addStatusBarItem());
    this.status.show({ state: 'starting' });
    this.addCommand({
      id: 'rebuild-index',
      name: 'Rebuild index (rescan vault)',
      callback: () => {
        if (this.openEngine()) void this.reconcile();
      },
    });
    this.addCommand({ id: 'search', name: 'Search memory', callback: () => this.openSearch() });
    // Before layout-ready Obsidian replays a 'create' for every file; the engine's own scan covers those.
    this.app.workspace.onLayoutReady(() => void this.start());
  }

  override onunload(): void {
    this.unloaded = true;
    const engine = this.engine;
    this.engine = null;
    // Still opening: start() sees `unloaded`, closes the engine and then releases the lock itself.
    const lock = engine ? this.lock : null;
    if (engine) this.lock = null;
    // Obsidian does not await onunload; the engine's journal covers a flush cut short by quitting.
    void (async () => {
      try {
        await engine?.close();
      } catch (err) {
        this.logger.error('closing the engine failed', { error: asLithosError(err).toJSON() });
      } finally {
        await lock?.release().catch(() => undefined);
      }
    })();
  }

  /** The stores have one writer at a time: wait while a `lithos` CLI command holds the vault. */
  private async acquireLock(blobs: ObsidianBlobStore): Promise<boolean> {
    const lock = new HeartbeatLock(blobs, systemClock, systemTimers, 'plugin', (by) => {
      this.fail('Lithos lost its write lock', new LithosError('vault_locked', `Another process (${by?.owner ?? 'unknown'}) took over this vault's memory; reload the plugin.`));
    });
    for (;;) {
      const holder = await lock.tryAcquire();
      if (this.unloaded) {
        await lock.release();
        return false;
      }
      if (!holder) break;
      this.status?.show({ state: 'waiting', holder: `${holder.owner}${holder.pid ? ` (pid ${holder.pid})` : ''}` });
      await new Promise((r) => window.setTimeout(r, 5000));
    }
    this.lock = lock;
    return true;
  }

  private async start(): Promise<void> {
    try {
      const blobs = new ObsidianBlobStore(this.app.vault.adapter);
      if (!(await this.acquireLock(blobs))) return;
      const vault = new ObsidianVault(
        this.app,
        (ref) => this.registerEvent(ref),
        () => void this.reconcile(),
      );
      const engine = await MemoryEngine.open({
        vault,
        blobs,
        sql: await loadSql(),
        logger: this.logger,
        onProgress: (p) => this.status?.show({ state: 'progress', ...p }),
      });
      if (this.unloaded) {
        await engine.close();
        await this.lock?.release();
        this.lock = null;
        return;
      }
      this.engine = engine;
      engine.consolidator.start(); // scheduled consolidation and the working-memory size trigger
      // Follow the vault before the first scan, so an edit made while it runs is not missed.
      vault.watch((e) => this.onVaultEvent(engine, e));
      await this.reconcile();
    } catch (err) {
      this.openError = this.fail('Lithos could not open its memory', err);
    }
  }

  /** One scan at a time: a rebuild requested during a scan joins it. */
  private reconcile(): Promise<void> {
    const engine = this.engine;
    if (!engine) return Promise.resolve();
    this.reconciling ??= engine
      .reconcile()
      .then((report: IndexReport) => {
        if (report.errors.length) this.logger.warn(`${report.errors.length} note(s) could not be indexed`, { errors: report.errors });
        if (this.engine === engine) this.showReady(engine);
      })
      .catch((err: unknown) => {
        this.fail('Lithos could not index the vault', err);
      })
      .finally(() => {
        this.reconciling = null;
      });
    return this.reconciling;
  }

  /** The open engine; otherwise tells the user why there is none and returns null. */
  private openEngine(): MemoryEngine | null {
    if (!this.engine) new Notice(this.openError ?? 'Lithos is still opening its memory.');
    return this.engine;
  }

  private onVaultEvent(engine: MemoryEngine, e: VaultEvent): void {
    if (this.engine !== engine) return; // unloading: the engine is closing
    engine.handleEvent(e);
    this.statusStale = true;
    if (!this.refreshing) void this.refreshWhenSettled(engine);
  }

  /** One status refresh per burst of events, once the engine has indexed them all. */
  private async refreshWhenSettled(engine: MemoryEngine): Promise<void> {
    this.refreshing = true;
    try {
      while (this.statusStale) {
        this.statusStale = false;
        await engine.idle();
      }
      // A running scan reports its own progress and ends with "ready".
      if (this.engine === engine && !this.reconciling) this.showReady(engine);
    } catch (err) {
      this.fail('Lithos could not index a change', err);
    } finally {
      this.refreshing = false;
    }
  }

  private showReady(engine: MemoryEngine): void {
    const notes = engine.stats().notes;
    this.status?.show({ state: 'ready', notes: typeof notes === 'number' ? notes : 0 });
  }

  private openSearch(): void {
    const engine = this.openEngine();
    if (!engine) return;
    new SearchModal(this.app, (q) => engine.search(q, { k: 20 }), (err) => this.logger.error('search failed', { error: asLithosError(err).toJSON() })).open();
  }

  /** Logs, shows the error in the status bar and a notice; returns the message shown. */
  private fail(what: string, err: unknown): string {
    const e = asLithosError(err);
    const message = `${what}: ${e.message}`;
    this.logger.error(what, { error: e.toJSON() });
    this.status?.show({ state: 'error', message });
    new Notice(message);
    return message;
  }
}
