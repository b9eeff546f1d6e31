import type { ToolCaller } from '../../shared/tools/types';
import { note } from '../engine/harness';
import { ALICE, BOB, CAROL, DAVE, HUMAN, titleOf, openScopeVault, type ScopeVault } from './scope-vault';

/** Who is "on a task" for task-scoped notes, and how receipts are cut to what the caller may see now. */

let v: ScopeVault;
beforeEach(async () => {
  v = await openScopeVault();
});
afterEach(async () => {
  await v.engine.close();
});

const listed = async (c: ToolCaller): Promise<string[]> => (await v.call('lithos_list', { limit: 200 }, c)).notes.map((n: { path: string }) => n.path);

describe('on the task', () => {
  test('a claim keeps counting after it lapses (the agent held it)', async () => {
    v.clock.advance(24 * 3600 * 1000);
    expect(v.engine.services.coordination.liveClaims(v.taskT)).toEqual([]);
    expect(await listed(ALICE)).toContain(v.path.task);
  });

  test('completing the task ends its claims but keeps the agents who held them on it (before, they lost its notes)', async () => {
    await v.call('lithos_task_claim', { task_id: v.taskT, aspect: 'probe' }, DAVE);
    expect(await listed(DAVE)).toContain(v.path.task);
    await v.call('lithos_task_complete', { task_id: v.taskT }, ALICE); // another agent completes it
    expect(v.engine.services.coordination.liveClaims(v.taskT)).toEqual([]);
    expect(await listed(DAVE)).toContain(v.path.task);
  });

  test('posting a finding on the task puts an agent on it', async () => {
    expect(await listed(CAROL)).not.toContain(v.path.task);
    await v.call('lithos_finding_post', { task_id: v.taskT, summary: 'Found the cause.' }, CAROL);
    expect(await listed(CAROL)).toContain(v.path.task);
  });

  test('naming a task on a retrieval does not put an agent on it: the task\'s notes stay hidden until it claims the task', async () => {
    const ids = async (args: Record<string, unknown>) => (await v.call('lithos_retrieve', { query_text: 'zebra striped probe', ...args }, DAVE)).nodes.map((n: { id: string }) => n.id);
    expect(await ids({ task_id: v.taskT })).not.toContain(v.id.task);
    expect(await ids({})).not.toContain(v.id.task);
    expect(await listed(DAVE)).not.toContain(v.path.task);
    await v.call('lithos_task_claim', { task_id: v.taskT, aspect: 'probe' }, DAVE);
    expect(await ids({ task_id: v.taskT })).toContain(v.id.task);
    expect(await listed(DAVE)).toContain(v.path.task);
  });
});

describe('receipts', () => {
  test('an own receipt naming a note the agent may no longer see drops that note', async () => {
    const r = await v.call('lithos_retrieve', { query_text: 'zebra striped probe', max_context_nodes: 20 }, ALICE);
    expect(r.nodes.map((n: { id: string }) => n.id)).toContain(v.id.project);
    // the person makes the project probe bob's private note
    v.vault.put(v.path.project, note({ id: v.id.project, title: titleOf('project'), namespace: 'project/atlas', access_scope: 'agent_private', author: 'bob' }, 'Now private.\n'));
    await v.engine.reconcile();

    const shown = (await v.call('lithos_receipts', { receipt_id: r.receipt_id }, ALICE)).receipts[0];
    expect(shown.final_nodes.map((n: { id: string }) => n.id)).not.toContain(v.id.project);
    expect(shown.candidates).not.toContain(v.id.project);
    expect(shown.final_nodes.map((n: { id: string }) => n.id)).toContain(v.id.shared);
    expect(JSON.stringify(shown)).not.toContain(v.id.project);
    // the person still sees the receipt as it was written
    const full = (await v.call('lithos_receipts', { receipt_id: r.receipt_id }, HUMAN)).receipts[0];
    expect(full.final_nodes.map((n: { id: string }) => n.id)).toContain(v.id.project);
  });

  test("another agent's receipt that returned a note the caller may not see is not shown at all", async () => {
    const r = await v.call('lithos_retrieve', { query_text: 'zebra striped probe', max_context_nodes: 20 }, ALICE);
    expect(r.nodes.map((n: { id: string }) => n.id)).toContain(v.id.agent_private);
    expect((await v.call('lithos_receipts', { receipt_id: r.receipt_id }, BOB)).receipts).toEqual([]);
  });

  test("another agent's receipt shown to the caller leaves out its per-scout hit counts (counted over what that agent sees); its own keeps them", async () => {
    const r = await v.call('lithos_retrieve', { query_text: 'zebra striped probe', max_context_nodes: 1, namespace_filter: 'notes/shared' }, ALICE);
    const mine = (await v.call('lithos_receipts', { receipt_id: r.receipt_id }, ALICE)).receipts[0];
    expect(Object.keys(mine.scouts).length).toBeGreaterThan(0);
    const theirs = (await v.call('lithos_receipts', { receipt_id: r.receipt_id }, BOB)).receipts[0];
    expect(theirs.final_nodes).toHaveLength(1);
    expect(theirs.scouts).toEqual({});
  });
});
