import type { Clock, Logger, Timers } from '../ports';

export const DEFAULT_DEBOUNCE_MS = 2_000;

export interface PersisterOptions {
  timers: Timers;
  clock: Clock;
  logger: Logger;
  /** Quiet time after the last change before a snapshot is written. */
  debounceMs: number;
  /** Upper bound on how long a change may wait while writes keep coming (default 5 × debounceMs). */
  maxWaitMs?: number;
  /**
   * Writes a snapshot. Must take its copy of the data synchronously, before its first await: changes
   * made after that point mark the store dirty again and are covered by the next snapshot.
   */
  persist: () => Promise<void>;
  label: string;
}

/**
 * Coalesces many changes into one snapshot. Snapshots run one at a time; a failed one leaves the
 * store dirty and is retried after another debounce period.
 */
export class DebouncedPersister {
  private dirty = false;
  private firstDirtyAt: number | null = null;
  private lastChangeAt = 0;
  private timer: unknown = null;
  private chain: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(private readonly o: PersisterOptions) {}

  /**
   * Records a change. The timer is armed once and re-armed when it fires early, rather than reset on
   * every change: bulk work calls this thousands of times.
   */
  markDirty(): void {
    if (this.disposed) return;
    this.dirty = true;
    this.lastChangeAt = this.o.clock.now();
    this.firstDirtyAt ??= this.lastChangeAt;
    if (this.timer === null) this.arm(this.o.debounceMs);
  }

  /** Writes a snapshot now if anything changed, after any snapshot already under way. */
  flush(): Promise<void> {
    this.clearTimer();
    return this.enqueue();
  }

  /** Stops the timer; later changes are no longer scheduled. */
  dispose(): void {
    this.disposed = true;
    this.clearTimer();
  }

  private enqueue(): Promise<void> {
    const p = this.chain.then(() => this.runOnce());
    this.chain = p.catch(() => undefined);
    return p;
  }

  private async runOnce(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    this.firstDirtyAt = null;
    try {
      await this.o.persist();
    } catch (err) {
      this.o.logger.error(`could not write ${this.o.label}; will retry`, { error: String(err) });
      this.markDirty();
      throw err;
    }
  }

  private arm(delay: number): void {
    this.timer = this.o.timers.setTimeout(() => this.onTimer(), Math.max(0, delay));
  }

  /** Snapshot once the store has been quiet for debounceMs, or a change has waited maxWaitMs. */
  private onTimer(): void {
    this.timer = null;
    if (!this.dirty || this.firstDirtyAt === null) return;
    const maxWait = this.o.maxWaitMs ?? this.o.debounceMs * 5;
    const due = Math.min(this.lastChangeAt + this.o.debounceMs, this.firstDirtyAt + maxWait);
    const now = this.o.clock.now();
    if (now < due) this.arm(due - now);
    else void this.enqueue().catch(() => undefined);
  }

  private clearTimer(): void {
    if (this.timer !== null) {
      this.o.timers.clearTimeout(this.timer);
      this.timer = null;
    }
  }
}
