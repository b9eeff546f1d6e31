import type { BlobStore, Clock, Timers } from '../ports';
import { newId } from '../model/ids';
import { LOCK_FILE, LOCK_HEARTBEAT_MS, heartbeatIsFresh, parseLockInfo, type LockInfo, type LockOwner } from './lock-info';

/**
 * The single-writer lock for hosts that cannot check process ids (the Obsidian plugin, mobile): liveness is
 * the heartbeat alone. It speaks the same lock file as bridge/lock.ts, so the CLI refuses to write a vault
 * the plugin has open, and the plugin waits while a CLI command holds it.
 */
export class HeartbeatLock {
  private info: LockInfo | null = null;
  private timer: unknown = null;

  constructor(
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly owner: LockOwner,
    private readonly onLost: (by: LockInfo | null) => void = () => undefined,
  ) {}

  /** The live holder other than us, or null when the lock is free (absent, stale or unreadable). */
  async holder(): Promise<LockInfo | null> {
    const bytes = await this.blobs.read(LOCK_FILE);
    const current = bytes ? parseLockInfo(bytes) : null;
    if (!current || current.token === this.info?.token) return null;
    return heartbeatIsFresh(current, this.clock.now()) ? current : null;
  }

  /** Claims the lock if it is free; returns the live holder otherwise (the caller retries later). */
  async tryAcquire(): Promise<LockInfo | null> {
    const other = await this.holder();
    if (other) return other;
    const now = new Date(this.clock.now()).toISOString();
    this.info = { pid: 0, hostname: this.owner, started_at: now, heartbeat_at: now, owner: this.owner, token: newId() };
    await this.write();
    // Two claimants racing: the last writer wins; re-read so the loser knows at once.
    const back = await this.blobs.read(LOCK_FILE);
    if (!back || parseLockInfo(back)?.token !== this.info.token) {
      this.info = null;
      return this.holder();
    }
    this.schedule();
    return null;
  }

  isHeld(): boolean {
    return this.info !== null;
  }

  async release(): Promise<void> {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    const mine = this.info;
    this.info = null;
    if (!mine) return;
    const bytes = await this.blobs.read(LOCK_FILE);
    if (bytes && parseLockInfo(bytes)?.token === mine.token) await this.blobs.remove(LOCK_FILE);
  }

  private schedule(): void {
    this.timer = this.timers.setTimeout(() => void this.beat(), LOCK_HEARTBEAT_MS);
  }

  private async beat(): Promise<void> {
    const mine = this.info;
    if (!mine) return;
    const bytes = await this.blobs.read(LOCK_FILE);
    const current = bytes ? parseLockInfo(bytes) : null;
    if (current?.token !== mine.token) {
      this.info = null;
      this.onLost(current);
      return;
    }
    mine.heartbeat_at = new Date(this.clock.now()).toISOString();
    await this.write();
    this.schedule();
  }

  private async write(): Promise<void> {
    await this.blobs.writeAtomic(LOCK_FILE, new TextEncoder().encode(JSON.stringify(this.info, null, 2) + '\n'));
  }
}
