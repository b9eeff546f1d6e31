/**
 * Polls until `check` holds; fails with what it last saw. The limit is wall-clock time, not a number of
 * tries: on two busy cores a 5 ms timer fires much later, and a try count ran out before a real socket or
 * an asynchronous store write had finished (a spec that passed alone failed beside 700 others).
 */
export async function eventually(check: () => boolean | Promise<boolean>, describe: () => unknown = () => 'nothing to show', timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`condition never held within ${timeoutMs} ms; last seen: ${JSON.stringify(describe())}`);
}
