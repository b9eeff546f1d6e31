import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../bridge/cli';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller } from '../../shared/tools/types';
import type { Harness } from '../engine/harness';
import { WORKING_MEMORY_TRIGGER_SIZE } from '../../shared/learning/consolidator';
import { LAG, OTHER, PRIVATE, auditActions, fixtureFiles, openFixture, receiptOf, usedReceipt } from './consolidation-fixture';

/**
 * lithos_working_memory (per agent / per task, gated by the caller's scope), lithos_consolidate, the
 * consolidation lithos_task_complete triggers, the schedule and size trigger, and `lithos consolidate`.
 */

const A: ToolCaller = { kind: 'agent', agent_id: 'agent-a' };
const B: ToolCaller = { kind: 'agent', agent_id: 'agent-b' };
const HUMAN: ToolCaller = { kind: 'human', agent_id: null };

let h: Harness;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON tool results, checked by assertions
let call: (name: string, args: unknown, caller?: ToolCaller) => Promise<any>;
beforeEach(async () => {
  h = await openFixture();
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine }));
  call = (name, args, caller = A) => tools.call(name, args, caller);
});
afterEach(async () => {
  await h.engine.close();
});

const [L1, L2, L3] = LAG.map((n) => n.id);
const idsOf = (r: { items: { id: string }[] }): string[] => r.items.map((i) => i.id);

describe('lithos_working_memory', () => {
  test("an agent's working memory: its retrievals of the last 24 h, most used first; another agent's are not in it", async () => {
    await usedReceipt(h, [L1, L2]);
    await usedReceipt(h, [L1]);
    await h.engine.services.retrieval.receipts.append(receiptOf(h, [L3], { agoMs: 2 * 86_400_000 }));
    await h.engine.services.retrieval.receipts.append(receiptOf(h, [OTHER[0].id], { agent_id: 'agent-b' }));
    const wm = await call('lithos_working_memory', {});
    expect(wm).toMatchObject({ agent: 'agent-a', task: null, receipts: 2 });
    expect(wm.items).toEqual([
      expect.objectContaining({ id: L1, path: LAG[0].path, retrieved: 2, used: 2 }),
      expect.objectContaining({ id: L2, retrieved: 1, used: 1 }),
    ]);
  });

  test("a task's working memory is shared: every retrieval for it by an agent on it, plus what its outcome cites; an outsider's is not in it", async () => {
    await h.engine.services.coordination.ensureAgent('agent-a');
    const t = await h.engine.services.coordination.createTask({ created_by: 'agent-a', title: 'lag' });
    await call('lithos_task_claim', { task_id: t.id, aspect: 'lag' }, B);
    await h.engine.services.retrieval.receipts.append(receiptOf(h, [L1], { task_id: t.id }));
    await h.engine.services.retrieval.receipts.append(receiptOf(h, [L2], { task_id: t.id, agent_id: 'agent-b' }));
    await h.engine.services.retrieval.receipts.append(receiptOf(h, [OTHER[2].id], { task_id: t.id, agent_id: 'outsider' })); // named the task, never joined
    await h.engine.services.retrieval.receipts.append(receiptOf(h, [L3]));
    await h.engine.services.coordination.completeTask(t.id, 'agent-a', { cited_nodes: [OTHER[1].id] });
    const wm = await call('lithos_working_memory', { task: t.id });
    expect(idsOf(wm).sort()).toEqual([L1, L2, OTHER[1].id].sort());
    expect((await call('lithos_working_memory', { task: t.id, agent: 'agent-b' })).items.map((i: { id: string }) => i.id)).toEqual([L2]);
  });

  test('a retrieval nobody gave feedback on is in it as retrieved, never as used', async () => {
    await h.engine.services.retrieval.receipts.append(receiptOf(h, [L1, L2]));
    await h.engine.services.retrieval.receipts.append(receiptOf(h, [L1]));
    const wm = await call('lithos_working_memory', {});
    expect(wm.items.map((i: { id: string; retrieved: number; used: number }) => [i.id, i.retrieved, i.used])).toEqual([[L1, 2, 0], [L2, 1, 0]]);
  });

  test('a receipt that got lithos_feedback counts only the notes that feedback found used: a misleading or ignored one is no use, and consolidation does not reinforce it', async () => {
    for (let i = 0; i < 2; i++) {
      const r = receiptOf(h, [L1, L2, L3]);
      await h.engine.services.retrieval.receipts.append(r);
      await call('lithos_feedback', { receipt_id: r.receipt_id, cited: [L1], misleading: [L2] });
    }
    const wm = await call('lithos_working_memory', {});
    expect(wm.items.map((i: { id: string; used: number }) => [i.id, i.used])).toEqual([[L1, 2], [L2, 0], [L3, 0]]);
    await call('lithos_consolidate', { agent: 'agent-a' });
    expect(h.engine.services.learning.memory.edges.find({ type: 'related_to' }).filter((e) => e.from_id === L2 || e.to_id === L2)).toEqual([]);
  });

  test('gated: a note the caller may not see is left out, while its owner and the person see it', async () => {
    await h.engine.services.retrieval.receipts.append(receiptOf(h, [L1, PRIVATE.id], { agent_id: 'agent-b' }));
    await h.engine.services.retrieval.receipts.append(receiptOf(h, [PRIVATE.id], { agent_id: 'agent-b' }));
    expect(idsOf(await call('lithos_working_memory', { agent: 'agent-b' }, A))).toEqual([L1]);
    // the receipt that returned only the private note is not counted for agent-a either
    expect((await call('lithos_working_memory', { agent: 'agent-b' }, A)).receipts).toBe(1);
    expect((await call('lithos_working_memory', { agent: 'agent-b' }, B)).receipts).toBe(2);
    expect(idsOf(await call('lithos_working_memory', { agent: 'agent-b' }, B)).sort()).toEqual([L1, PRIVATE.id].sort());
    expect(idsOf(await call('lithos_working_memory', { agent: 'agent-b' }, HUMAN)).sort()).toEqual([L1, PRIVATE.id].sort());
  });

  test('bad input is a clear error: the person must name an agent or a task', async () => {
    await expect(call('lithos_working_memory', {}, HUMAN)).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(call('lithos_working_memory', { agent: '' })).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

describe('lithos_consolidate and the triggers', () => {
  test('lithos_consolidate runs one consolidation and reports it; the audit names the calling agent', async () => {
    for (let i = 0; i < 2; i++) await usedReceipt(h, [L1, L2]);
    const r = await call('lithos_consolidate', { agent: 'agent-a' });
    expect(r).toMatchObject({ units: 1, edges_created: 1, edges_reinforced: 0 });
    const entry = (await auditActions(h)).find((a) => a.action === 'consolidate') as unknown as { actor: unknown };
    expect(entry.actor).toEqual({ kind: 'agent', id: 'agent-a' });
    expect(await call('lithos_consolidate', { agent: 'agent-a' })).toMatchObject({ edges_created: 0, edges_reinforced: 0 });
  });

  test('an unknown task or agent is not_found; bad arguments are invalid_argument', async () => {
    await expect(call('lithos_consolidate', { task: 'no-such-task' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(call('lithos_consolidate', { agent: 'nobody' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(call('lithos_consolidate', { task: 7 })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(call('lithos_consolidate', { extra: true })).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  test('lithos_task_complete consolidates the task it completes', async () => {
    const t = await call('lithos_task_create', { title: 'lag' });
    for (let i = 0; i < 2; i++) await h.engine.services.retrieval.receipts.append(receiptOf(h, [L1, L2], { task_id: t.task.id }));
    // The citations teach (feedback on the task's receipts: L1 and L2 used together), then consolidation builds on those uses.
    await call('lithos_task_complete', { task_id: t.task.id, cited_nodes: [L1, L2] });
    const entry = (await auditActions(h)).find((a) => a.action === 'consolidate');
    expect(entry).toMatchObject({ target: `task:${t.task.id}`, data: expect.objectContaining({ units: 1 }) });
    expect(entry?.data.edges_created as number + (entry?.data.edges_reinforced as number)).toBe(1);
    expect(h.engine.services.learning.memory.edges.find({ type: 'related_to' })).toHaveLength(1);
  });

  test('the schedule runs on the engine timers every 6 h and stops when the engine closes', async () => {
    h.engine.services.learning.consolidator.start();
    for (let i = 0; i < 2; i++) await h.engine.services.retrieval.receipts.append(receiptOf(h, [L1, L2]));
    h.clock.advance(6 * 3600 * 1000);
    await h.engine.services.learning.consolidator.run({}); // queued behind the scheduled run: resolves once it has finished
    const runs = (await auditActions(h)).filter((a) => a.action === 'consolidate') as unknown as { actor: { id: string } }[];
    expect(runs.map((r) => r.actor.id)).toEqual(['schedule', null]);
    await h.engine.close();
    expect(h.engine.services.learning.consolidator.scheduled).toBe(false);
  });

  test(`a working memory past ${WORKING_MEMORY_TRIGGER_SIZE} distinct notes is consolidated at once (with the schedule on)`, async () => {
    h.engine.services.learning.consolidator.start();
    const many = Array.from({ length: WORKING_MEMORY_TRIGGER_SIZE + 1 }, (_, i) => `n${i}`);
    const r = receiptOf(h, many);
    await h.engine.services.retrieval.receipts.append(r);
    h.engine.services.learning.consolidator.noteRetrieval(r);
    await h.engine.services.learning.consolidator.run({});
    const runs = (await auditActions(h)).filter((a) => a.action === 'consolidate') as unknown as { actor: { id: string }; target: string }[];
    expect(runs[0]).toMatchObject({ actor: { id: 'working-memory-size' }, target: 'agent:agent-a' });
  });
});

describe('lithos consolidate (CLI)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'lithos-consolidate-'));
    for (const [rel, text] of Object.entries(fixtureFiles())) {
      mkdirSync(join(root, rel, '..'), { recursive: true });
      writeFileSync(join(root, rel), text);
    }
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('--json prints the report; the summary note gets its summaries once', async () => {
    const lines: string[] = [];
    expect(await main(['consolidate', root, '--json'], (s) => lines.push(s))).toBe(0);
    const report = JSON.parse(lines.join('\n'));
    expect(report).toMatchObject({ units: [], edges_created: 0, summaries_refreshed: [expect.any(String)] });
    const again: string[] = [];
    expect(await main(['consolidate', root], (s) => again.push(s))).toBe(0);
    expect(again.join('\n')).toContain('summaries refreshed: 0');
  });
});
