import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller } from '../../shared/tools/types';
import { AGENT, HUMAN, INDEX_ID, POOL_ID, openTools, type ToolHarness } from '../tools/fixture';

/**
 * Every tool that changes state leaves an audit entry: the catalog is walked, and each tool not marked
 * read-only must have a step below that calls it successfully and finds its action in the audit trail. A new
 * state-changing tool without a step fails the last test, so it cannot ship unaudited.
 *
 * One exemption, with its reason: lithos_retrieve's state change is its receipt (the append-only receipt
 * log is the record of a retrieval; an audit entry per retrieval would double it), and retrieval teaches
 * nothing (docs/learning.md).
 */
const EXEMPT: Record<string, string> = { lithos_retrieve: 'recorded by its receipt' };

interface Ctx {
  [k: string]: string;
}
interface Step {
  tool: string;
  caller: ToolCaller;
  args: (c: Ctx) => Record<string, unknown>;
  /** The audit actions the call must append (at least these, in any order). */
  actions: string[];
  /** Keeps values later steps need. */
  keep?: (result: any, c: Ctx) => void; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results
}

const STEPS: Step[] = [
  { tool: 'lithos_agent_register', caller: AGENT, args: () => ({ id: 'agent-a', name: 'Agent A', type: 'coder' }), actions: ['agent.register'] },
  { tool: 'lithos_write', caller: AGENT, args: () => ({ title: 'Audit probe', namespace: 'project/atlas', content: 'A note written to be audited.\n' }), actions: ['note.write'], keep: (r, c) => (c.note = r.id) },
  { tool: 'lithos_edge_create', caller: AGENT, args: () => ({ from: POOL_ID, to: INDEX_ID, type: 'supports' }), actions: ['edge.upsert'], keep: (r, c) => (c.edge = r.edge?.edge_id ?? r.edge_id) },
  { tool: 'lithos_edge_update', caller: AGENT, args: (c) => ({ edge_id: c.edge, weight: 0.4 }), actions: ['edge.upsert'] },
  { tool: 'lithos_edge_delete', caller: AGENT, args: (c) => ({ edge_id: c.edge }), actions: ['edge.delete'] },
  { tool: 'lithos_task_create', caller: AGENT, args: () => ({ title: 'Audit the tools' }), actions: ['task.create'], keep: (r, c) => (c.task = r.task?.id ?? r.task_id) },
  { tool: 'lithos_task_claim', caller: AGENT, args: (c) => ({ task_id: c.task, aspect: 'walk' }), actions: ['task.claim'] },
  { tool: 'lithos_task_renew', caller: AGENT, args: (c) => ({ task_id: c.task, aspect: 'walk' }), actions: ['task.renew'] },
  { tool: 'lithos_task_release', caller: AGENT, args: (c) => ({ task_id: c.task, aspect: 'walk' }), actions: ['task.release'] },
  { tool: 'lithos_finding_post', caller: AGENT, args: (c) => ({ task_id: c.task, summary: 'Every tool is walked.', knowledge_id: POOL_ID }), actions: ['finding.post'] },
  { tool: 'lithos_task_complete', caller: AGENT, args: (c) => ({ task_id: c.task, cited_nodes: [POOL_ID] }), actions: ['task.complete'] },
  { tool: 'lithos_task_create', caller: AGENT, args: () => ({ title: 'A task to cancel' }), actions: ['task.create'], keep: (r, c) => (c.task2 = r.task?.id ?? r.task_id) },
  { tool: 'lithos_task_cancel', caller: AGENT, args: (c) => ({ task_id: c.task2, reason: 'walked' }), actions: ['task.cancel'] },
  {
    tool: 'lithos_feedback',
    caller: HUMAN,
    args: (c) => ({ receipt_id: c.receipt, cited: [POOL_ID] }),
    actions: ['feedback'],
  },
  { tool: 'lithos_consolidate', caller: HUMAN, args: () => ({}), actions: ['consolidate'] },
  { tool: 'lithos_conflict_open', caller: AGENT, args: () => ({ a: POOL_ID, b: INDEX_ID, evidence: 'They disagree on the cause.' }), actions: ['conflict.create'], keep: (r, c) => (c.conflict = r.edge_id ?? r.conflict?.edge_id) },
  { tool: 'lithos_conflict_resolve', caller: HUMAN, args: (c) => ({ edge_id: c.conflict, resolution: 'accepted_dual' }), actions: ['conflict.resolve'] },
  { tool: 'lithos_write', caller: AGENT, args: () => ({ title: 'Proposed one', namespace: 'decisions', content: 'Kept as a proposal.\n' }), actions: ['proposal.create'], keep: (r, c) => (c.p1 = r.proposal_id) },
  { tool: 'lithos_proposal_accept', caller: HUMAN, args: (c) => ({ proposal_id: c.p1 }), actions: ['proposal.accept'] },
  { tool: 'lithos_write', caller: AGENT, args: () => ({ title: 'Proposed two', namespace: 'decisions', content: 'Rejected.\n' }), actions: ['proposal.create'], keep: (r, c) => (c.p2 = r.proposal_id) },
  { tool: 'lithos_proposal_reject', caller: HUMAN, args: (c) => ({ proposal_id: c.p2, reason: 'not needed' }), actions: ['proposal.reject'] },
  { tool: 'lithos_event_record', caller: AGENT, args: () => ({ kind: 'observation', summary: 'The walk reached the events.', links: [POOL_ID] }), actions: ['event.record'] },
  { tool: 'lithos_delete', caller: HUMAN, args: (c) => ({ id: c.note }), actions: ['note.delete'] },
];

let h: ToolHarness;
const ctx: Ctx = {};
beforeAll(async () => {
  h = await openTools();
  await h.engine.services.governance.policy.set({ propose_namespaces: ['decisions'] });
  // The feedback step needs a receipt: a recorded retrieval (exempt itself, see above).
  ctx.receipt = (await h.call('lithos_retrieve', { query_text: 'connection pool' }, HUMAN)).receipt_id;
});
afterAll(async () => {
  await h.engine.close();
});

const seq = async (): Promise<number> => (await h.engine.services.governance.audit.recent({ limit: 1 }))[0]?.seq ?? 0;

describe.each(STEPS.map((s, i) => [`${i + 1}. ${s.tool} → ${s.actions.join(', ')}`, s] as const))('%s', (_name, step) => {
  test('succeeds and is audited', async () => {
    const from = await seq();
    const result = await h.call(step.tool, step.args(ctx), step.caller);
    step.keep?.(result, ctx);
    const added = (await h.engine.services.governance.audit.recent({ limit: 200 })).filter((e) => e.seq > from).map((e) => e.action);
    expect(added).toEqual(expect.arrayContaining(step.actions));
  });
});

test('every state-changing tool in the catalog has an audited step above (or a stated exemption)', () => {
  const covered = new Set([...STEPS.map((s) => s.tool), ...Object.keys(EXEMPT)]);
  const missing = TOOL_CATALOG.filter((d) => d.annotations.readOnlyHint !== true && !covered.has(d.name)).map((d) => d.name);
  expect(missing).toEqual([]);
});
