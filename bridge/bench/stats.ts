/** Small statistics helpers for the bench. */
import { readFileSync } from 'node:fs';

/** Percentile (p in [0, 100]) by linear interpolation between closest ranks; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const pos = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * Peak resident set size of this process so far, in MB. On Linux from VmHWM, the high-water mark of this
 * process's own memory: ru_maxrss (the fallback elsewhere) survives exec, so in a spawned child it also
 * counts the parent's pages copied by the fork, which the bench's warm-phase child would otherwise report.
 */
export function peakRssMb(): number {
  const sampled = process.memoryUsage().rss / 1024;
  let kib = NaN;
  try {
    const m = /^VmHWM:\s*(\d+)\s*kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) kib = Number(m[1]);
  } catch {
    // not Linux: fall back below
  }
  if (!Number.isFinite(kib)) kib = process.resourceUsage().maxRSS;
  return Math.max(kib, sampled) / 1024;
}

/** Elapsed milliseconds of an async step. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}
