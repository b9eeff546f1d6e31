import type { CoordinationStore } from '../../shared/coordination/coordination-store';
import type { Env } from '../stores/helpers';
import { codeOf, failure } from '../twins/error-code';
import { MIN, openStore, withAgents } from './helpers';

const A = 'agent-a';
const B = 'agent-b';

describe('aspect claims', () => {
  let store: CoordinationStore;
  let e: Env;
  let task: string;

  beforeEach(async () => {
    ({ store, e } = await openStore());
    await withAgents(store, A, B);
    task = (await store.createTask({ created_by: A, title: 'Fix the flaky sync test' })).id;
  });

  const claim = (agent: string, aspect: string, ttl_minutes?: number) => store.claim({ task_id: task, aspect, agent, ttl_minutes });

  it('a free aspect is won, for 60 minutes by default', async () => {
    const t0 = e.clock.now();
    const r = await claim(A, 'tests');
    expect(r).toEqual({ claim: { task_id: task, aspect: 'tests', agent_id: A, claimed_at: t0, expires_at: t0 + 60 * MIN }, already_held: false });
    expect(store.liveClaims(task)).toEqual([r.claim]);
    expect(store.claimsHeldBy(A)).toEqual([r.claim]);
  });

  it('different aspects of one task are held by different agents at once', async () => {
    await claim(A, 'tests');
    await claim(B, 'docs');
    expect(store.liveClaims(task).map((c) => [c.aspect, c.agent_id])).toEqual([['docs', B], ['tests', A]]);
  });

  it('a held aspect is a conflict naming the holder and when the claim expires', async () => {
    await claim(A, 'tests', 30);
    e.clock.advance(10 * MIN);
    const err = await failure(claim(B, 'tests'));
    expect(err.code).toBe('conflict');
    expect(err.message).toBe(
      `Aspect "tests" of task ${task} is held by agent "${A}" until 2026-01-01T00:30:00.000Z (20 min from now). ` +
        'Pick another aspect, or claim it after it is released or expires.',
    );
    expect(err.data).toEqual({ task_id: task, aspect: 'tests', held_by: A, expires_at: '2026-01-01T00:30:00.000Z', remaining_seconds: 1200 });
    expect(store.liveClaims(task)[0].agent_id).toBe(A);
  });

  it('an expired claim is free: the next agent takes it at the moment of expiry', async () => {
    await claim(A, 'tests', 5);
    e.clock.advance(5 * MIN - 1);
    expect(await codeOf(claim(B, 'tests'))).toBe('conflict');
    e.clock.advance(1);
    expect(store.liveClaims(task)).toEqual([]);
    const r = await claim(B, 'tests');
    expect(r.claim.agent_id).toBe(B);
    expect(store.liveClaims(task)).toEqual([r.claim]);
  });

  it('claiming an aspect one already holds restarts its TTL and keeps claimed_at (a retried call is harmless)', async () => {
    const t0 = e.clock.now();
    await claim(A, 'tests', 10);
    e.clock.advance(8 * MIN);
    const r = await claim(A, 'tests', 10);
    expect(r).toEqual({ claim: { task_id: task, aspect: 'tests', agent_id: A, claimed_at: t0, expires_at: t0 + 18 * MIN }, already_held: true });
  });

  it('renew by the holder sets the expiry ttl minutes from now', async () => {
    await claim(A, 'tests', 10);
    e.clock.advance(9 * MIN);
    const renewed = await store.renew({ task_id: task, aspect: 'tests', agent: A, ttl_minutes: 120 });
    expect(renewed.expires_at).toBe(e.clock.now() + 120 * MIN);
    e.clock.advance(60 * MIN);
    expect(await codeOf(claim(B, 'tests'))).toBe('conflict');
    const dflt = await store.renew({ task_id: task, aspect: 'tests', agent: A });
    expect(dflt.expires_at).toBe(e.clock.now() + 60 * MIN);
  });

  it('renew by another agent is a conflict naming the holder; nothing changes', async () => {
    const held = (await claim(A, 'tests')).claim;
    const err = await failure(store.renew({ task_id: task, aspect: 'tests', agent: B }));
    expect(err.code).toBe('conflict');
    expect(err.data).toMatchObject({ held_by: A });
    expect(store.liveClaims(task)).toEqual([held]);
  });

  it('renew or release of an expired or never-made claim is not_found and says why', async () => {
    await claim(A, 'tests', 1);
    e.clock.advance(2 * MIN);
    const expired = await failure(store.renew({ task_id: task, aspect: 'tests', agent: A }));
    expect(expired.code).toBe('not_found');
    expect(expired.message).toMatch(/its claim expired at 2026-01-01T00:01:00\.000Z\. Claim it again with lithos_task_claim\./);
    const never = await failure(store.release({ task_id: task, aspect: 'docs', agent: B }));
    expect(never.code).toBe('not_found');
    expect(never.message).toMatch(/it holds no claim on it/);
  });

  it('release by the holder frees the aspect at once; by another agent it is a conflict', async () => {
    await claim(A, 'tests');
    expect(await codeOf(store.release({ task_id: task, aspect: 'tests', agent: B }))).toBe('conflict');
    const released = await store.release({ task_id: task, aspect: 'tests', agent: A });
    expect(released.agent_id).toBe(A);
    expect(store.liveClaims(task)).toEqual([]);
    expect((await claim(B, 'tests')).claim.agent_id).toBe(B);
  });

  it.each([0, -5, 481, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('ttl_minutes %p is out of range: invalid_argument, nothing claimed', async (ttl) => {
    const err = await failure(claim(A, 'tests', ttl));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toMatch(/ttl_minutes must be a whole number of minutes from 1 to 480/);
    expect(store.liveClaims(task)).toEqual([]);
  });

  it('ttl bounds themselves are accepted: 1 and 480 minutes', async () => {
    expect((await claim(A, 'a', 1)).claim.expires_at).toBe(e.clock.now() + MIN);
    expect((await claim(A, 'b', 480)).claim.expires_at).toBe(e.clock.now() + 480 * MIN);
    expect(await codeOf(store.renew({ task_id: task, aspect: 'a', agent: A, ttl_minutes: 481 }))).toBe('invalid_argument');
  });

  it('two agents racing for one aspect: exactly one wins, the other gets a conflict naming the winner', async () => {
    const results = await Promise.allSettled([claim(A, 'tests'), claim(B, 'tests')]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = store.liveClaims(task)[0].agent_id;
    expect(lost[0].reason).toMatchObject({ code: 'conflict', data: { held_by: winner } });
  });

  it('many agents racing for one expired aspect: still exactly one wins', async () => {
    const racers = Array.from({ length: 8 }, (_, i) => `racer-${i}`);
    await withAgents(store, ...racers);
    await claim(A, 'tests', 1);
    e.clock.advance(MIN);
    const results = await Promise.allSettled(racers.map((r) => claim(r, 'tests')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(store.liveClaims(task)).toHaveLength(1);
  });

  it('claims need a registered agent, an existing open task and a one-line aspect', async () => {
    expect(await codeOf(store.claim({ task_id: task, aspect: 'x', agent: 'stranger' }))).toBe('not_found');
    expect(await codeOf(store.claim({ task_id: 'no-such-task', aspect: 'x', agent: A }))).toBe('not_found');
    for (const aspect of ['', '   ', ' padded', 'two\nlines', 'x'.repeat(201)]) {
      expect(await codeOf(claim(A, aspect))).toBe('invalid_argument');
    }
    await store.completeTask(task, A);
    const err = await failure(claim(A, 'x'));
    expect(err.code).toBe('conflict');
    expect(err.message).toBe(`Task ${task} is completed at 2026-01-01T00:00:00.000Z; its aspects can no longer be claimed.`);
  });
});
