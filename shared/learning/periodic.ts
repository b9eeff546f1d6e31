import type { Timers } from '../ports';

/**
 * A task re-run every `intervalMs` on the engine's timers (decay, consolidation): the next run is armed
 * only after the previous one settles, so runs never overlap; `reschedule` re-arms a pending run from now;
 * `stop` cancels and waits for a run in progress. The task reports its own failures.
 */
export class Periodic {
  private timer: unknown = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly timers: Timers,
    private readonly task: () => Promise<unknown>,
    private interval: number,
  ) {}

  get intervalMs(): number {
    return this.interval;
  }

  get scheduled(): boolean {
    return this.timer !== null;
  }

  /** Arms the first run `intervalMs` from now (no-op when already scheduled or stopped). */
  start(intervalMs = this.interval): void {
    if (this.stopped || this.timer !== null) return;
    this.interval = intervalMs;
    this.arm();
  }

  /** A new interval; a pending run is re-armed to `intervalMs` from now. */
  reschedule(intervalMs: number): void {
    this.interval = intervalMs;
    if (this.stopped || this.timer === null) return;
    this.timers.clearTimeout(this.timer);
    this.arm();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private arm(): void {
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      const run = this.task().catch(() => undefined);
      this.running = run;
      void run.finally(() => {
        if (!this.stopped) this.arm();
      });
    }, this.interval);
    // A pending run must not keep a short-lived host process (a CLI command) alive on its own.
    (this.timer as { unref?: () => void } | null)?.unref?.();
  }
}
