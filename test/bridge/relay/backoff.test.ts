import { backoffDelay } from '../../../bridge/relay/backoff';

describe('reconnect backoff', () => {
  const opts = { initialMs: 100, maxMs: 2000 };

  it('doubles from the first delay and stops at the cap', () => {
    const top = (attempt: number) => backoffDelay(attempt, opts, () => 1);
    expect([0, 1, 2, 3, 4, 5, 10, 1000].map(top)).toEqual([100, 200, 400, 800, 1600, 2000, 2000, 2000]);
  });

  it('is jittered within the upper half of each step, so bridges do not return in lockstep', () => {
    expect(backoffDelay(3, opts, () => 0)).toBe(400);
    expect(backoffDelay(3, opts, () => 0.5)).toBe(600);
    expect(backoffDelay(60, opts, () => 0)).toBe(1000);
  });

  it('defaults to 250 ms doubling up to 10 s', () => {
    expect(backoffDelay(0, {}, () => 1)).toBe(250);
    expect(backoffDelay(50, {}, () => 1)).toBe(10_000);
  });
});
