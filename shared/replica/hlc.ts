import type { Clock } from '../ports';

/**
 * A hybrid logical clock (Kulkarni et al.): wall-clock milliseconds plus a counter, so stamps keep the order
 * of what one device did even when its clock stalls or steps back, and follow causality across devices (a
 * device that has seen a stamp never issues a smaller one). A stamp is a fixed-width string —
 * `<ms base36, 9>.<counter base36, 4>.<device>` — so stamps compare as strings and the device breaks ties.
 */
export class Hlc {
  private wall = 0;
  private counter = 0;

  constructor(
    private readonly clock: Clock,
    readonly device: string,
  ) {}

  /** Moves the clock past a stamp it has seen (its own files at open, another device's lines). */
  observe(stamp: string): void {
    const p = parseStamp(stamp);
    if (!p) return;
    if (p.wall > this.wall || (p.wall === this.wall && p.counter > this.counter)) {
      this.wall = p.wall;
      this.counter = p.counter;
    }
  }

  /** A stamp greater than every stamp issued or observed. */
  now(): string {
    const t = this.clock.now();
    if (t > this.wall) {
      this.wall = t;
      this.counter = 0;
    } else {
      this.counter++;
    }
    return formatStamp(this.wall, this.counter, this.device);
  }
}

const WALL_WIDTH = 9;
const COUNTER_WIDTH = 4;
const STAMP_RE = /^([0-9a-z]{9})\.([0-9a-z]{4})\.([0-9a-z]+)$/;

export function formatStamp(wall: number, counter: number, device: string): string {
  return `${wall.toString(36).padStart(WALL_WIDTH, '0')}.${counter.toString(36).padStart(COUNTER_WIDTH, '0')}.${device}`;
}

export function parseStamp(stamp: string): { wall: number; counter: number; device: string } | null {
  const m = STAMP_RE.exec(stamp);
  if (!m) return null;
  return { wall: parseInt(m[1], 36), counter: parseInt(m[2], 36), device: m[3] };
}

/** The wall-clock time of a stamp (ms since epoch), or null when it is not one. */
export function stampTime(stamp: string): number | null {
  return parseStamp(stamp)?.wall ?? null;
}
