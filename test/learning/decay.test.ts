import { DECAY_MARK } from '../../shared/learning/decay';
import { DAY_MS, DECAY } from '../../shared/learning/constants';
import { NOTE_TYPE_TABLE } from '../../shared/model/note-types';
import type { Harness } from '../engine/harness';
import { A, B, C, D, openLearning } from './fixture';

/** Decay (shared/learning/decay.ts): toward each note type's floor, idempotent per `now`, human edges untouched. */

let h: Harness;
beforeEach(async () => {
  h = await openLearning();
});
afterEach(async () => {
  await h.engine.close();
});

const mem = () => h.engine.services.learning.memory;
const edge = (from: string, to: string, weight: number, provenance: 'human' | 'agent' | 'rule', type = 'related_to') =>
  mem().edges.upsert({ from_id: from, to_id: to, type, weight, namespace: 'project', provenance_actor: provenance, provenance_type: provenance, evidence: null, conflict_state: null });

test('the first run records a baseline only; nothing learned means nothing written', async () => {
  expect(await h.engine.services.learning.decay(h.clock.now())).toMatchObject({ ran: false });
  expect(mem().learned.mark(DECAY_MARK)).toBeNull();
  await mem().stats.update(A, { salience: 0.9 });
  expect(await h.engine.services.learning.decay(h.clock.now())).toMatchObject({ ran: false });
  expect(mem().learned.mark(DECAY_MARK)).toEqual({ at: h.clock.now() });
  expect(mem().stats.get(A).salience).toBe(0.9);
});

test('salience falls toward the note type floor with its half-life, and never below the floor', async () => {
  const t0 = h.clock.now();
  // A observation, B agent_finding, D task_record (fixture.ts)
  await mem().stats.update(A, { salience: 0.9 });
  await mem().stats.update(B, { salience: 0.9 });
  await mem().stats.update(D, { salience: 0.1 }); // already under its floor: decay leaves it
  await h.engine.services.learning.decay(t0);
  const obs = NOTE_TYPE_TABLE.observation;
  const r = await h.engine.services.learning.decay(t0 + obs.half_life_days * DAY_MS);
  expect(r).toMatchObject({ ran: true, salience: 2 });
  expect(mem().stats.get(A).salience).toBeCloseTo(obs.floor + (0.9 - obs.floor) / 2, 6);
  expect(mem().stats.get(B).salience).toBeGreaterThan(mem().stats.get(A).salience); // findings fade slower
  expect(mem().stats.get(D).salience).toBe(0.1);
  await h.engine.services.learning.decay(t0 + 100 * 365 * DAY_MS);
  expect(mem().stats.get(A).salience).toBeCloseTo(obs.floor, 6);
  expect(mem().stats.get(B).salience).toBeCloseTo(NOTE_TYPE_TABLE.agent_finding.floor, 6);
  expect(mem().stats.get(A).salience).toBeGreaterThanOrEqual(obs.floor);
});

test('a recall interval learned by spaced repetition does not decay: forgetting is read from the time since the last use', async () => {
  const t0 = h.clock.now();
  await mem().stats.update(C, { spaced_rep_strength: 6.25, last_used_at: t0 });
  await h.engine.services.learning.decay(t0);
  await h.engine.services.learning.decay(t0 + 365 * DAY_MS);
  expect(mem().stats.get(C).spaced_rep_strength).toBe(6.25);
});

test('running twice at the same now equals running once', async () => {
  const t0 = h.clock.now();
  await mem().stats.update(A, { salience: 0.9, spaced_rep_strength: 1.5 });
  await edge(A, B, 0.5, 'rule');
  await h.engine.services.learning.decay(t0);
  const later = t0 + 10 * DAY_MS;
  await h.engine.services.learning.decay(later);
  const once = { stats: mem().stats.all(), edges: mem().edges.find({}).map((e) => [e.edge_id, e.weight]) };
  const audits = (await h.engine.services.governance.audit.recent({ action: 'decay' })).length;
  expect(await h.engine.services.learning.decay(later)).toMatchObject({ ran: false });
  expect({ stats: mem().stats.all(), edges: mem().edges.find({}).map((e) => [e.edge_id, e.weight]) }).toEqual(once);
  expect(await h.engine.services.governance.audit.recent({ action: 'decay' })).toHaveLength(audits);
});

test('rule and agent edges decay and are pruned below the threshold; human and conflict edges never decay', async () => {
  const t0 = h.clock.now();
  const rule = await edge(A, B, 0.5, 'rule');
  const agent = await edge(B, C, 0.5, 'agent');
  const weak = await edge(C, D, DECAY.edge_prune_below * 1.5, 'rule');
  const human = await edge(A, D, 0.5, 'human');
  const conflict = await edge(B, D, 0.5, 'rule', 'contradicts');
  await h.engine.services.learning.decay(t0);
  const r = await h.engine.services.learning.decay(t0 + DECAY.edge_half_life_days * DAY_MS);
  expect(r).toMatchObject({ edges_decayed: 2, edges_pruned: 1 });
  const w = (id: string) => mem().edges.find({}).find((e) => e.edge_id === id)?.weight;
  expect(w(rule.edge_id)).toBeCloseTo(0.25, 6);
  expect(w(agent.edge_id)).toBeCloseTo(0.25, 6);
  expect(w(weak.edge_id)).toBeUndefined();
  expect(w(human.edge_id)).toBe(0.5);
  expect(w(conflict.edge_id)).toBe(0.5);
  const [audit] = await h.engine.services.governance.audit.recent({ action: 'decay' });
  expect(audit.data).toMatchObject({ edges_decayed: 2, edges_pruned: 1 });
});

test('the engine decays at open and on its schedule, and stops on close', async () => {
  await mem().stats.update(A, { salience: 0.9 });
  // Opening ran decay once already (nothing learned then); this sets the baseline.
  await h.engine.services.learning.decay(h.clock.now());
  h.clock.advance(DECAY.interval_ms);
  await h.engine.flush(); // lets the scheduled run finish
  await new Promise((r) => setImmediate(r));
  expect(mem().stats.get(A).salience).toBeLessThan(0.9);
  expect(mem().learned.mark(DECAY_MARK)).toEqual({ at: h.clock.now() });
});

test('a mark left in the future by a clock that was ahead is reset to now, and decay goes on from there', async () => {
  const t0 = h.clock.now();
  await mem().stats.update(A, { salience: 0.9 });
  await h.engine.services.learning.decay(t0);
  await h.engine.services.learning.decay(t0 + 365 * DAY_MS); // the laptop's clock a year ahead for one run
  await mem().stats.update(A, { salience: 0.9 }); // learned back once the clock is right
  expect(await h.engine.services.learning.decay(t0 + DAY_MS)).toMatchObject({ ran: false });
  expect(mem().learned.mark(DECAY_MARK)).toEqual({ at: t0 + DAY_MS });
  const obs = NOTE_TYPE_TABLE.observation;
  await h.engine.services.learning.decay(t0 + DAY_MS + obs.half_life_days * DAY_MS);
  expect(mem().stats.get(A).salience).toBeCloseTo(obs.floor + (0.9 - obs.floor) / 2, 6);
});

test('what was learned in a first session that closed before any run still decays over the gap that follows', async () => {
  const t0 = h.clock.now();
  expect(await h.engine.services.learning.decay(t0)).toMatchObject({ ran: false }); // a fresh vault: nothing learned, no mark
  await mem().stats.update(A, { salience: 0.9, last_used_at: t0 + 1000 });
  const obs = NOTE_TYPE_TABLE.observation;
  const r = await h.engine.services.learning.decay(t0 + 1000 + obs.half_life_days * DAY_MS); // reopened one half-life later
  expect(r).toMatchObject({ ran: true, salience: 1 });
  expect(mem().stats.get(A).salience).toBeCloseTo(obs.floor + (0.9 - obs.floor) / 2, 6);
});

test('runs every minute decay small edges as one run over the whole span does (rounding used to freeze them)', async () => {
  const t0 = h.clock.now();
  await edge(A, B, 0.03, 'rule');
  await h.engine.services.learning.decay(t0);
  const span = DAY_MS;
  for (let t = 60_000; t <= span; t += 60_000) await h.engine.services.learning.decay(t0 + t);
  const expected = 0.03 * Math.pow(2, -span / (DECAY.edge_half_life_days * DAY_MS));
  expect(mem().edges.find({})[0].weight).toBeCloseTo(expected, 6);
});

test('co-activation pairs seen too rarely to form a concept are forgotten once half a year old; frequent or recent ones stay', async () => {
  const t0 = h.clock.now();
  await mem().stats.update(A, { salience: 0.9 });
  await h.engine.services.learning.decay(t0);
  await mem().coactivation.bump(A, B, 'project', t0); // once, long ago
  for (let i = 0; i < 3; i++) await mem().coactivation.bump(A, C, 'project', t0); // often enough for a concept
  await mem().coactivation.bump(B, C, 'project', t0 + 100 * DAY_MS); // once, recently
  const r = await h.engine.services.learning.decay(t0 + 200 * DAY_MS);
  expect(r.coactivation_pruned).toBe(1);
  expect(mem().coactivation.of(A).map((c) => [c.other, c.count])).toEqual([[C, 3]]);
  expect(mem().coactivation.of(B).map((c) => c.other)).toEqual([C]);
  const audit = (await h.engine.services.governance.audit.recent({ action: 'decay' }))[0];
  expect(audit.data).toMatchObject({ coactivation_pruned: 1 });
});

test('feedback marks of receipts over a year old are forgotten; recent ones stay, so feedback still counts once', async () => {
  const t0 = h.clock.now();
  await mem().stats.update(A, { salience: 0.9 });
  await h.engine.services.learning.decay(t0);
  await mem().learned.setMark('feedback:old-receipt', { at: t0, used: [A], misleading: [] });
  await mem().learned.setMark('feedback:new-receipt', { at: t0 + 300 * DAY_MS, used: [B], misleading: [] });
  const r = await h.engine.services.learning.decay(t0 + 400 * DAY_MS);
  expect(r.feedback_marks_pruned).toBe(1);
  expect(mem().learned.mark('feedback:old-receipt')).toBeNull();
  expect(mem().learned.mark('feedback:new-receipt')).toMatchObject({ used: [B] });
  expect(mem().learned.mark(DECAY_MARK)).toEqual({ at: t0 + 400 * DAY_MS }); // other marks untouched
});
