import { FEEDBACK } from '../../shared/learning/constants';
import { SPACED_REPETITION } from '../../shared/model/spaced-repetition';
import { failure } from '../twins/error-code';
import type { Harness } from '../engine/harness';
import { note } from '../engine/harness';
import { A, B, C, D, FILES, openLearning, retrieveAll } from './fixture';

/** Feedback arithmetic on one receipt (shared/learning/feedback.ts), on a real engine over the twins. */

let h: Harness;
beforeEach(async () => {
  h = await openLearning();
});
afterEach(async () => {
  await h.engine.close();
});

const stats = (id: string) => h.engine.services.learning.memory.stats.get(id);

describe('used notes', () => {
  test('a cited note gains salience, a use, last_used_at, spaced repetition and its class prior', async () => {
    const r = await retrieveAll(h);
    const out = await h.engine.services.learning.feedback({ receipt_id: r.receipt_id, cited: [A], agent: 'agent-a' });
    expect(out).toMatchObject({ applied: true, used: [A], misleading: [], query_class: 'lookup' });
    expect(out.ignored.sort()).toEqual([B, C, D]);
    expect(stats(A)).toMatchObject({
      salience: 0.5 + FEEDBACK.used_salience,
      use_count: 1,
      last_used_at: h.clock.now(),
      spaced_rep_strength: SPACED_REPETITION.first_interval_days,
      per_queryclass_priors: { lookup: FEEDBACK.used_class_prior },
    });
  });

  test('salience is clamped', async () => {
    await h.engine.services.learning.memory.stats.update(A, { salience: 0.995 });
    const r = await retrieveAll(h);
    await h.engine.services.learning.feedback({ receipt_id: r.receipt_id, cited: [A] });
    expect(stats(A).salience).toBe(1);
  });

  test('two used notes get a related_to rule edge, created at +0.03 and reinforced by +0.03', async () => {
    await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [A, B] });
    const [e] = h.engine.services.learning.memory.edges.find({ type: 'related_to' });
    expect(e).toMatchObject({ weight: FEEDBACK.used_edge, provenance_type: 'rule' });
    expect([e.from_id, e.to_id].sort()).toEqual([A, B]);
    await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [B, A] });
    expect(h.engine.services.learning.memory.edges.find({ type: 'related_to' })).toEqual([expect.objectContaining({ edge_id: e.edge_id, weight: 2 * FEEDBACK.used_edge })]);
  });

  test('the output text counts a note it reproduces as used, without a citation', async () => {
    const r = await retrieveAll(h);
    const out = await h.engine.services.learning.feedback({ receipt_id: r.receipt_id, output_text: 'Dashboards for the connection pool show active, idle and waiting connections per minute.' });
    expect(out.supported).toEqual([C]);
    expect(out.used).toEqual([C]);
    expect(stats(C).use_count).toBe(1);
  });

  test('a rejected output (accepted: false) reinforces nothing; accepted: true adds the acceptance bonus', async () => {
    await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [A], accepted: false });
    // Use count and time feed recency, utility and spaced repetition: a rejected output moves none of them.
    expect(stats(A)).toMatchObject({ salience: 0.5, use_count: 0, last_used_at: null, spaced_rep_strength: 1 });
    await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [B], accepted: true });
    expect(stats(B).salience).toBeCloseTo(0.5 + FEEDBACK.used_salience + FEEDBACK.accepted_salience, 6);
  });
});

describe('ignored notes, per query class first', () => {
  test('an ignored note loses its class prior only; other classes are untouched', async () => {
    await h.engine.services.learning.memory.stats.update(B, { per_queryclass_priors: { design: 0.1 } });
    await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h, { query_class: 'debug' })).receipt_id, cited: [A] });
    expect(stats(B)).toMatchObject({ ignored_count: 1, salience: 0.5, per_queryclass_priors: { design: 0.1, debug: FEEDBACK.ignored_class_prior } });
  });

  test('salience drops only when chronic: ignored more than 5 times and more often than used', async () => {
    await h.engine.services.learning.memory.stats.update(B, { ignored_count: 4 });
    await h.engine.services.learning.memory.stats.update(C, { ignored_count: 5, use_count: 9 });
    await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [A] });
    expect(stats(B)).toMatchObject({ ignored_count: 5, salience: 0.5 }); // 5 is not more than 5
    expect(stats(C)).toMatchObject({ ignored_count: 6, salience: 0.5 }); // used more often than ignored
    await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [A] });
    expect(stats(B)).toMatchObject({ ignored_count: 6, salience: 0.5 + FEEDBACK.ignored_salience });
  });

  test('a class prior stays within ±class_prior_cap', async () => {
    await h.engine.services.learning.memory.stats.update(B, { per_queryclass_priors: { lookup: -FEEDBACK.class_prior_cap + 0.01 } });
    await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [A] });
    expect(stats(B).per_queryclass_priors.lookup).toBe(-FEEDBACK.class_prior_cap);
  });
});

describe('misleading notes', () => {
  test('lose class prior and salience, and the incoming rule/agent edges from other final nodes are weakened', async () => {
    const mem = h.engine.services.learning.memory;
    const base = { namespace: 'project', evidence: null, conflict_state: null };
    const pulled = await mem.edges.upsert({ ...base, from_id: B, to_id: A, type: 'supports', weight: 0.5, provenance_actor: 'agent-b', provenance_type: 'agent' });
    const human = await mem.edges.upsert({ ...base, from_id: C, to_id: A, type: 'supports', weight: 0.5, provenance_actor: 'human', provenance_type: 'human' });
    const outgoing = await mem.edges.upsert({ ...base, from_id: A, to_id: D, type: 'supports', weight: 0.5, provenance_actor: 'agent-b', provenance_type: 'agent' });
    const out = await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, misleading: [A] });
    expect(out).toMatchObject({ misleading: [A], edges_weakened: 1, quarantined: [] });
    expect(stats(A)).toMatchObject({ misleading_count: 1, salience: 0.5 + FEEDBACK.misleading_salience, per_queryclass_priors: { lookup: FEEDBACK.misleading_class_prior } });
    const weight = (id: string) => mem.edges.find({}).find((e) => e.edge_id === id)!.weight;
    expect(weight(pulled.edge_id)).toBeCloseTo(0.5 + FEEDBACK.misleading_edge, 6);
    expect(weight(human.edge_id)).toBe(0.5);
    expect(weight(outgoing.edge_id)).toBe(0.5);
  });

  test('quarantine at exactly 3 marks: status and status callout written, hidden from default retrieval, audited, listed', async () => {
    for (let i = 1; i <= 2; i++) await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, misleading: [D], agent: 'agent-a' });
    expect(h.engine.services.notes.note(D)!.cached.meta.status).toBe('active');
    const third = await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, misleading: [D], agent: 'agent-a' });
    expect(third.quarantined).toEqual([D]);
    expect(h.engine.services.notes.note(D)!.cached.meta.status).toBe('quarantined');
    expect(h.vault.text('project/d.md')).toMatch(/^status: quarantined$/m);
    expect(h.vault.text('project/d.md')).toContain('[!lithos-status] Quarantined');
    expect(h.vault.text('project/d.md')).toContain('The connection pool was introduced in 2023'); // the text itself untouched
    const after = await h.engine.services.retrieval.retrieve({ query_text: 'connection pool' }, { record: false });
    expect(after.nodes.map((n) => n.id)).not.toContain(D);
    const [entry] = await h.engine.services.governance.audit.recent({ action: 'quarantine' });
    expect(entry).toMatchObject({ target: D, actor: { kind: 'rule' }, data: expect.objectContaining({ path: 'project/d.md', previous_status: 'active' }) });
    expect(h.engine.services.learning.quarantined().map((n) => [n.id, n.misleading_count])).toEqual([[D, 3]]);
  });
});

test('released by a person, a note counts misleading marks afresh: one more mark does not quarantine it again, three do', async () => {
  const mark = async () => h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, misleading: [D], agent: 'agent-a' });
  for (let i = 0; i < 3; i++) await mark();
  expect(h.engine.services.notes.note(D)!.cached.meta.status).toBe('quarantined');
  await h.engine.services.notes.updateFrontmatter('project/d.md', (fm) => void (fm.status = 'active')); // the person's review
  expect((await mark()).quarantined).toEqual([]);
  expect((await mark()).quarantined).toEqual([]);
  expect((await mark()).quarantined).toEqual([D]);
  expect(h.engine.services.learning.memory.stats.get(D).misleading_count).toBe(6); // the history is kept
});

test('a status callout left in a note released while no Lithos process ran is removed by lithos conflicts scan', async () => {
  for (let i = 0; i < 3; i++) await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, misleading: [D], agent: 'agent-a' });
  const text = h.vault.text('project/d.md')!;
  expect(text).toContain('[!lithos-status] Quarantined');
  h.vault.put('project/d.md', text.replace('status: quarantined', 'status: active'), false); // edited by hand, unseen
  await h.engine.reconcile();
  await h.engine.services.conflicts.scan();
  expect(h.vault.text('project/d.md')).not.toContain('[!lithos-status]');
});

test('coactivation counts the pairs of notes used together, not of notes shown together', async () => {
  const one = await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [A] });
  expect(one.coactivation_pairs).toBe(0);
  for (const id of [A, B, C, D]) expect(h.engine.services.learning.memory.coactivation.of(id)).toEqual([]);
  const three = await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [A, B, C] });
  expect(three.coactivation_pairs).toBe(3);
  const pairs = (id: string) => h.engine.services.learning.memory.coactivation.of(id).map((c) => [c.other, c.count]).sort();
  for (const id of [A, B, C]) expect(pairs(id)).toEqual([A, B, C].filter((x) => x !== id).map((x) => [x, 1]).sort());
  expect(pairs(D)).toEqual([]); // shown each time, never used
});

describe('exploration picks', () => {
  // Unrelated notes for the explore intent's exploration slots (novelty and random scouts) to draw from.
  const misc = Object.fromEntries(
    ['harbour', 'violin', 'orchard', 'telescope', 'lantern', 'compass', 'meadow', 'falcon', 'pottery', 'canyon'].map((w) => [`misc/${w}.md`, note({ title: `The ${w}` }, `A short note about the ${w}.\n`)]),
  );

  test('an exploration pick passed over costs nothing: its stats are as before; a note that ranked there is counted ignored', async () => {
    await h.engine.close();
    h = await openLearning({ ...FILES, ...misc });
    const res = await h.engine.services.retrieval.retrieve({ query_text: 'connection pool', agent_id: 'agent-a', intent: 'explore', max_context_nodes: 6 }, { jitter: false, seed: 1 });
    const receipt = (await h.engine.services.retrieval.receipts.query({ receipt_id: res.receipt_id! })).receipts[0];
    const explored = receipt.final_nodes.filter((n) => n.exploration).map((n) => n.id);
    expect(explored.length).toBeGreaterThan(0);
    expect(res.nodes.filter((n) => n.exploration).map((n) => n.id)).toEqual(explored);
    const ranked = receipt.final_nodes.map((n) => n.id).filter((id) => !explored.includes(id) && id !== A);
    expect(ranked.length).toBeGreaterThan(0);
    const before = explored.map(stats);
    const out = await h.engine.services.learning.feedback({ receipt_id: receipt.receipt_id, cited: [A], agent: 'agent-a' });
    expect(explored.map(stats)).toEqual(before);
    expect(out.exploration.sort()).toEqual([...explored].sort());
    expect(out.ignored.sort()).toEqual([...ranked].sort());
    for (const id of ranked) expect(stats(id).ignored_count).toBe(1);
  });

  test('an exploration pick that was used or misleading counts like any note', async () => {
    await h.engine.close();
    h = await openLearning({ ...FILES, ...misc });
    const res = await h.engine.services.retrieval.retrieve({ query_text: 'connection pool', agent_id: 'agent-a', intent: 'explore', max_context_nodes: 6 }, { jitter: false, seed: 1 });
    const [pick] = res.nodes.filter((n) => n.exploration).map((n) => n.id);
    await h.engine.services.learning.feedback({ receipt_id: res.receipt_id!, cited: [pick] });
    expect(stats(pick)).toMatchObject({ use_count: 1, ignored_count: 0 });
  });
});

test('feedback for the same receipt counts once', async () => {
  const r = await retrieveAll(h);
  await h.engine.services.learning.feedback({ receipt_id: r.receipt_id, cited: [A, B], misleading: [C] });
  const snapshot = [A, B, C, D].map(stats);
  const edges = h.engine.services.learning.memory.edges.find({});
  const again = await h.engine.services.learning.feedback({ receipt_id: r.receipt_id, cited: [A, B], misleading: [C] });
  expect(again).toMatchObject({ applied: false, used: [], ignored: [] });
  expect([A, B, C, D].map(stats)).toEqual(snapshot);
  expect(h.engine.services.learning.memory.edges.find({})).toEqual(edges);
  expect(h.engine.services.learning.memory.coactivation.of(A).map((c) => c.count)).toEqual([1]);
  expect(await h.engine.services.governance.audit.recent({ action: 'feedback' })).toHaveLength(1);
});

test('two concurrent calls for one receipt still count once', async () => {
  const r = await retrieveAll(h);
  const [x, y] = await Promise.all([h.engine.services.learning.feedback({ receipt_id: r.receipt_id, cited: [A] }), h.engine.services.learning.feedback({ receipt_id: r.receipt_id, cited: [A] })]);
  expect([x.applied, y.applied]).toEqual([true, false]);
  expect(stats(A).use_count).toBe(1);
});

test('each application is audited with its counts', async () => {
  const r = await retrieveAll(h, { task_id: 'task-1' });
  await h.engine.services.learning.feedback({ receipt_id: r.receipt_id, cited: [A, B], misleading: [C], agent: 'agent-a', task: 'task-1' });
  const [e] = await h.engine.services.governance.audit.recent({ action: 'feedback' });
  expect(e).toMatchObject({ target: r.receipt_id, actor: { kind: 'agent', id: 'agent-a' } });
  expect(e.data).toMatchObject({ task: 'task-1', used: 2, ignored: 1, misleading: 1, edges_reinforced: 1, coactivation_pairs: 1 });
});

describe('bad input', () => {
  test('an unknown receipt is not_found', async () => {
    expect((await failure(h.engine.services.learning.feedback({ receipt_id: 'no-such-receipt', cited: [A] }))).code).toBe('not_found');
  });

  test('a node the receipt did not return is invalid_argument naming it; so is a note both cited and misleading', async () => {
    const r = await retrieveAll(h);
    const outside = await failure(h.engine.services.learning.feedback({ receipt_id: r.receipt_id, cited: [A, 'some-other-node'] }));
    expect(outside.code).toBe('invalid_argument');
    expect(outside.message).toContain('some-other-node');
    expect((await failure(h.engine.services.learning.feedback({ receipt_id: r.receipt_id, cited: [A], misleading: [A] }))).code).toBe('invalid_argument');
    expect(stats(A).use_count).toBe(0);
  });
});
