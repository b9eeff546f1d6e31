import type { Clock, Timers } from '../../shared/ports';

/** Deterministic clock + timers: time moves only when a test calls advance(). */
export class FakeClock implements Clock, Timers {
  private t: number;
  private seq = 0;
  private pending = new Map<number, { at: number; fn: () => void }>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.pending.set(id, { at: this.t + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.pending) if (e[1].at <= end && (!next || e[1].at < next[1].at)) next = e;
      if (!next) break;
      this.pending.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
    }
    this.t = end;
  }

  /** How far in the future each pending timer fires (ms), soonest first. */
  dueIn(): number[] {
    return [...this.pending.values()].map((p) => p.at - this.t).sort((a, b) => a - b);
  }

  pendingCount(): number {
    return this.pending.size;
  }
}
