export interface BackoffOptions {
  /** First retry delay. Default 250 ms. */
  initialMs?: number;
  /** Ceiling. Default 10 s. */
  maxMs?: number;
}

/**
 * Delay before reconnect attempt `attempt` (0-based): doubling from initialMs, capped at maxMs, with
 * "equal jitter" (half fixed, half random) so bridges that lost the same host do not return in lockstep.
 */
export function backoffDelay(attempt: number, opts: BackoffOptions = {}, random: () => number = Math.random): number {
  const initial = opts.initialMs ?? 250;
  const max = opts.maxMs ?? 10_000;
  const base = Math.min(max, initial * 2 ** Math.min(attempt, 30));
  return Math.round(base / 2 + random() * (base / 2));
}
