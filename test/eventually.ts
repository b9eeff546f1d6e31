/**
 * How long a test waits for something that should happen before calling it a hang. It is a hang guard,
 * never a window the code must beat: on two cores busy with other work (`npm run test:stress`) a model
 * load that takes 0.5 s alone took over 2 s, and a 2 s window failed a correct plugin. Shorter than
 * jest's testTimeout (jest.config.js) so the failure says what was awaited rather than "timed out".
 */
export const HANG_MS = 60_000;

/**
 * Waits for a state change the code shows only as state (a status text, a file, a count): re-checks it
 * every few ms until it holds, and fails with what it last saw after HANG_MS. There is deliberately no
 * shorter limit to pass: a test that needs "within N ms" measures the machine, not the code.
 */
export async function eventually(check: () => boolean | Promise<boolean>, describe: () => unknown = () => 'nothing to show'): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`condition never held within ${HANG_MS / 1000} s (a hang, not a slow machine); last seen: ${JSON.stringify(describe())}`);
}
