import type { Harness } from '../engine/harness';
import { REINFORCE_AMOUNT } from '../../shared/learning/consolidate';
import { SUMMARY_HASH_FIELD } from '../../shared/learning/summaries';
import { HYPO, LAG, SUMMARY, auditActions, openFixture, receiptOf, usedReceipt } from './consolidation-fixture';

/**
 * consolidate(): reinforces edges among working-memory items used at least twice, promotes hypotheses
 * cited on two tasks and not contradicted, refreshes summaries only when their material changed, and
 * changes nothing when run again on the same material.
 */

let h: Harness;
beforeEach(async () => {
  h = await openFixture();
});
afterEach(async () => {
  await h.engine.close();
});

const [A, B, C, D] = LAG.map((n) => n.id);
const run = (over: { task?: string; agent?: string } = {}) => h.engine.services.learning.consolidator.run(over);
const relatedWeight = (x: string, y: string): number | null => {
  const e = [...h.engine.services.learning.memory.edges.find({ from: x, to: y, type: 'related_to' }), ...h.engine.services.learning.memory.edges.find({ from: y, to: x, type: 'related_to' })];
  return e.length ? e[0].weight : null;
};

async function task(id: string, agent = 'agent-a'): Promise<void> {
  await h.engine.services.coordination.ensureAgent(agent);
  const t = await h.engine.services.coordination.createTask({ created_by: agent, title: `task ${id}` });
  taskIds.set(id, t.id);
}
const taskIds = new Map<string, string>();
const tid = (name: string): string => taskIds.get(name) as string;

describe('edge reinforcement', () => {
  test('items used in two retrievals of a task get related_to edges (rule, +0.05); an item used once gets none', async () => {
    await task('T');
    await usedReceipt(h, [A, B, C], { task_id: tid('T') });
    await usedReceipt(h, [A, B, C, D], { task_id: tid('T') });
    const r = await run({ task: tid('T') });
    expect(r).toMatchObject({ units: [`task:${tid('T')}`], edges_created: 3, edges_reinforced: 0 });
    expect([relatedWeight(A, B), relatedWeight(A, C), relatedWeight(B, C)]).toEqual([REINFORCE_AMOUNT, REINFORCE_AMOUNT, REINFORCE_AMOUNT]);
    expect(relatedWeight(A, D)).toBeNull();
    const e = h.engine.services.learning.memory.edges.find({ type: 'related_to' });
    expect(e.every((x) => x.provenance_type === 'rule' && x.provenance_actor === 'consolidate')).toBe(true);
    const entry = (await auditActions(h)).filter((a) => a.action === 'consolidate');
    expect(entry).toEqual([expect.objectContaining({ target: `task:${tid('T')}`, data: expect.objectContaining({ edges_created: 3, units: 1 }) })]);
  });

  test('retrievals nobody gave feedback on reinforce nothing: no edge, whatever they returned together', async () => {
    await task('T');
    for (let i = 0; i < 3; i++) await h.engine.services.retrieval.receipts.append(receiptOf(h, [A, B, C, D], { task_id: tid('T') }));
    for (let i = 0; i < 3; i++) await h.engine.services.retrieval.receipts.append(receiptOf(h, [A, B, C, D]));
    const r = await run();
    expect(r).toMatchObject({ edges_created: 0, edges_reinforced: 0 });
    expect(h.engine.services.learning.memory.edges.find({})).toEqual([]);
  });

  test('an existing edge is strengthened; a human edge is left alone', async () => {
    await task('T');
    await h.engine.services.learning.memory.edges.upsert({ from_id: A, to_id: B, type: 'related_to', weight: 0.5, namespace: 'project', provenance_actor: 'agent-x', provenance_type: 'agent', evidence: null, conflict_state: null });
    await h.engine.services.learning.memory.edges.upsert({ from_id: C, to_id: A, type: 'related_to', weight: 0.9, namespace: 'project', provenance_actor: 'human', provenance_type: 'human', evidence: null, conflict_state: null });
    for (let i = 0; i < 2; i++) await usedReceipt(h, [A, B, C], { task_id: tid('T') });
    const r = await run({ task: tid('T') });
    expect(r).toMatchObject({ edges_reinforced: 1, edges_created: 1 });
    expect(relatedWeight(A, B)).toBeCloseTo(0.55, 10);
    expect(relatedWeight(A, C)).toBe(0.9);
  });

  test("explicit feedback wins: the outcome's receipt counts only the cited notes as used", async () => {
    await task('T');
    const r1 = receiptOf(h, [A, B, C], { task_id: tid('T') });
    await h.engine.services.retrieval.receipts.append(r1);
    await usedReceipt(h, [A, B, C], { task_id: tid('T') });
    await h.engine.services.coordination.completeTask(tid('T'), 'agent-a', { receipt_id: r1.receipt_id, cited_nodes: [A, B] });
    await run({ task: tid('T') });
    expect(relatedWeight(A, B)).toBe(REINFORCE_AMOUNT);
    expect(relatedWeight(A, C)).toBeNull();
  });

  test('idempotent: a second run over the same material changes no edge, note or state', async () => {
    await task('T');
    for (let i = 0; i < 2; i++) await usedReceipt(h, [A, B, C], { task_id: tid('T') });
    await run({ task: tid('T') });
    const edges = JSON.stringify(h.engine.services.learning.memory.edges.find({}));
    const files = JSON.stringify(h.vault.paths().map((p) => h.vault.text(p)));
    const r = await run({ task: tid('T') });
    expect(r).toMatchObject({ edges_created: 0, edges_reinforced: 0, hypotheses_promoted: [], concepts_created: [], summaries_refreshed: [] });
    expect(JSON.stringify(h.engine.services.learning.memory.edges.find({}))).toBe(edges);
    expect(JSON.stringify(h.vault.paths().map((p) => h.vault.text(p)))).toBe(files);
  });

  test('with neither task nor agent it consolidates every unit of the last 24 h: tasks, and task-less days per agent', async () => {
    await task('T');
    for (let i = 0; i < 2; i++) await usedReceipt(h, [A, B], { task_id: tid('T') });
    for (let i = 0; i < 2; i++) await usedReceipt(h, [C, D], { agent_id: 'agent-b' });
    await usedReceipt(h, [A, D], { agent_id: 'agent-b', agoMs: 3 * 86_400_000 });
    const r = await run();
    expect(r.units).toEqual([`task:${tid('T')}`, `agent:agent-b:${new Date(h.clock.now()).toISOString().slice(0, 10)}`]);
    expect(relatedWeight(A, B)).toBe(REINFORCE_AMOUNT);
    expect(relatedWeight(C, D)).toBe(REINFORCE_AMOUNT);
    expect(relatedWeight(A, D)).toBeNull();
  });
});

describe('only use teaches consolidation', () => {
  const ask = (query_text: string) => h.engine.services.retrieval.retrieve({ query_text, agent_id: 'agent-a', max_context_nodes: 10 });

  test('after real retrievals with no feedback (trial queries included), consolidation creates no edge and no concept', async () => {
    for (let i = 0; i < 3; i++) for (const q of ['kafka consumer lag', 'consumer group partitions', 'foo', 'garden tomatoes bread']) expect((await ask(q)).receipt_id).not.toBeNull();
    const r = await run();
    expect(r.units.length).toBeGreaterThan(0);
    expect(r).toMatchObject({ edges_created: 0, edges_reinforced: 0, concepts_created: [], concepts_updated: [] });
    expect(h.engine.services.learning.memory.edges.find({})).toEqual([]);
    expect(h.engine.services.learning.memory.counts().coactivation).toBe(0);
    expect(h.engine.services.notes.notes().filter((n) => n.cached.meta.note_type === 'concept')).toEqual([]);
  });

  test('with feedback, only the notes used together are paired: the ones shown beside them stay apart', async () => {
    const [x, y] = [LAG[0].id, LAG[1].id];
    for (let i = 0; i < 3; i++) {
      const res = await ask('kafka consumer lag');
      expect(res.nodes.length).toBeGreaterThan(2);
      await h.engine.services.learning.feedback({ receipt_id: res.receipt_id!, cited: [x, y], agent: 'agent-a' });
    }
    await run();
    const touched = new Set(h.engine.services.learning.memory.edges.find({ type: 'related_to' }).flatMap((e) => [e.from_id, e.to_id]));
    expect([...touched].sort()).toEqual([x, y].sort());
    const coactive = h.engine.services.notes.notes().map((n) => n.nodeId).filter((id) => h.engine.services.learning.memory.coactivation.of(id).length > 0);
    expect(coactive.sort()).toEqual([x, y].sort());
  });
  test('a concept gathers the notes used together, never one only shown beside them', async () => {
    const cited = LAG.slice(0, 5).map((n) => n.id);
    const shown = LAG[5].id;
    for (let i = 0; i < 3; i++) {
      const res = await ask('kafka consumer lag');
      expect(res.nodes.map((n) => n.id)).toEqual(expect.arrayContaining([...cited, shown]));
      await h.engine.services.learning.feedback({ receipt_id: res.receipt_id!, cited, agent: 'agent-a' });
    }
    const r = await run();
    expect(r.concepts_created).toHaveLength(1);
    const members = h.engine.services.learning.memory.edges.find({ to: r.concepts_created[0], type: 'is_example_of' }).map((e) => e.from_id);
    expect(members.sort()).toEqual([...cited].sort());
  });
});

describe('hypothesis promotion', () => {
  async function citedOnTasks(names: string[]): Promise<void> {
    for (const name of names) {
      await task(name);
      await h.engine.services.coordination.completeTask(tid(name), 'agent-a', { cited_nodes: [HYPO.id] });
      await run({ task: tid(name) });
    }
  }

  test('a hypothesis cited on two completed tasks becomes an agent_finding with promoted_from: hypothesis, audited', async () => {
    await citedOnTasks(['T1']);
    expect(h.engine.services.notes.note(HYPO.id)?.cached.meta.note_type).toBe('hypothesis');
    await citedOnTasks(['T2']);
    const n = h.engine.services.notes.note(HYPO.id)!;
    expect(n.cached.meta).toMatchObject({ note_type: 'agent_finding', status: 'active' });
    expect((await h.engine.services.notes.parse(HYPO.path)).frontmatter.promoted_from).toBe('hypothesis');
    expect((await h.engine.services.notes.parse(HYPO.path)).body).toBe('Consumer lag may come from slow commits.\n');
    const promote = (await auditActions(h)).filter((a) => a.action === 'hypothesis.promote');
    expect(promote).toEqual([expect.objectContaining({ target: HYPO.id, data: expect.objectContaining({ tasks: [tid('T1'), tid('T2')].sort(), to: 'agent_finding' }) })]);
  });

  test('not promoted while an unreviewed contradicts edge touches it', async () => {
    await h.engine.services.learning.memory.edges.upsert({ from_id: LAG[0].id, to_id: HYPO.id, type: 'contradicts', weight: 0.5, namespace: 'project', provenance_actor: 'agent-x', provenance_type: 'agent', evidence: null, conflict_state: 'unreviewed' });
    await citedOnTasks(['T1', 'T2']);
    expect(h.engine.services.notes.note(HYPO.id)?.cached.meta.note_type).toBe('hypothesis');
    expect((await auditActions(h)).some((a) => a.action === 'hypothesis.promote')).toBe(false);
  });

  test('a hypothesis marked misleading on a task gets no credit from it', async () => {
    await task('T1');
    await h.engine.services.coordination.completeTask(tid('T1'), 'agent-a', { cited_nodes: [HYPO.id] });
    await run({ task: tid('T1') });
    await task('T2');
    await h.engine.services.coordination.completeTask(tid('T2'), 'agent-a', { misleading_nodes: [HYPO.id] });
    await run({ task: tid('T2') });
    expect(h.engine.services.notes.note(HYPO.id)?.cached.meta.note_type).toBe('hypothesis');
  });
});

describe('summary refresh', () => {
  test('writes summaries.short/long and the material digest once; a second run writes nothing; a changed member rewrites them', async () => {
    const first = await run();
    expect(first.summaries_refreshed).toEqual([SUMMARY.id]);
    const fm = (await h.engine.services.notes.parse(SUMMARY.path)).frontmatter as { summaries: { short: string; long: string } } & Record<string, unknown>;
    expect(fm.summaries.short).toMatch(/Kafka|consumer/i);
    expect(fm.summaries.long.length).toBeGreaterThan(fm.summaries.short.length);
    expect(typeof fm[SUMMARY_HASH_FIELD]).toBe('string');
    const text = h.vault.text(SUMMARY.path);

    expect((await run()).summaries_refreshed).toEqual([]);
    expect(h.vault.text(SUMMARY.path)).toBe(text);

    await h.engine.services.notes.writeNote({ path: LAG[1].path, mode: 'update', content: 'Kafka consumer lag: a new finding about partitions and consumer fetch size.\n', fields: {}, actor: 'agent-a' });
    expect((await run()).summaries_refreshed).toEqual([SUMMARY.id]);
    expect(h.vault.text(SUMMARY.path)).not.toBe(text);
    expect((await auditActions(h)).filter((a) => a.action === 'summary.refresh').map((a) => a.target)).toEqual([SUMMARY.id, SUMMARY.id]);
  });

  test('summaries a person wrote are never overwritten', async () => {
    await h.engine.services.notes.updateFrontmatter(SUMMARY.path, (fm) => {
      fm.summaries = { short: 'Mine.' };
    });
    const text = h.vault.text(SUMMARY.path);
    expect((await run()).summaries_refreshed).toEqual([]);
    expect(h.vault.text(SUMMARY.path)).toBe(text);
  });
});
