/**
 * The longest the event loop went without a turn while some work ran: a setImmediate chain records the gap
 * between its ticks. In Obsidian the same gap is how long typing would wait, so indexing must keep it short
 * (it yields between chunks, shared/stores/yield-to-host.ts).
 */
export function startStallProbe(): { stop(): number } {
  let last = performance.now();
  let max = 0;
  let running = true;
  const tick = (): void => {
    const now = performance.now();
    max = Math.max(max, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop(): number {
      running = false;
      return Math.max(max, performance.now() - last);
    },
  };
}
