/** Small statistics helpers for the bench. */

/** Percentile (p in [0, 100]) by linear interpolation between closest ranks; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const pos = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Peak resident set size of this process so far, in MB (ru_maxrss is reported in KiB). */
export function peakRssMb(): number {
  const kib = process.resourceUsage().maxRSS;
  const sampled = process.memoryUsage().rss / 1024;
  return Math.max(kib, sampled) / 1024;
}

/** Elapsed milliseconds of an async step. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}
