import { measureConvergence } from '../../bridge/bench/devices-converge';

/** The bench's convergence phase on a small vault: what it measures must also hold (issue 22). */
test.each([2, 5])('%i devices exchanging files in a random order converge, and the phase says so', async (n) => {
  const r = await measureConvergence(n, 7, 40, 30);
  expect(r).toEqual(expect.objectContaining({ devices: n, converged: 1 }));
  expect(r.lines).toBeGreaterThan(0);
  expect(r.rounds).toBeGreaterThan(n);
}, 60_000);
