import { COORDINATION_TOOLS } from '../../shared/tools/coordination';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { inputJsonSchema } from '../../shared/tools/json-schema';
import type { ToolCaller } from '../../shared/tools/types';
import { codeOf, failure } from '../twins/error-code';
import { AGENT, HUMAN, INDEX_ID, OTHER, POOL_ID, SECRET_ID, openTools, type ToolHarness } from '../tools/fixture';
import { MIN } from './helpers';

/** The coordination tools through the real dispatcher and a real engine over the tools fixture vault. */

const NOBODY: ToolCaller = { kind: 'agent', agent_id: null };
const T0 = '2026-01-01T00:00:00.000Z';

let t: ToolHarness;
beforeEach(async () => {
  t = await openTools();
});
afterEach(async () => {
  await t.engine.close();
});

async function newTask(title = 'Shrink p95 latency', caller: ToolCaller = AGENT): Promise<string> {
  return ((await t.call('lithos_task_create', { title, tags: ['atlas'] }, caller)) as { task_id: string }).task_id;
}

describe('the coordination tool definitions', () => {
  it('are in the catalog once each, with descriptions, MCP annotations and an object JSON schema', () => {
    const names = COORDINATION_TOOLS.map((d) => d.name);
    expect(names).toEqual([
      'lithos_agent_register', 'lithos_agent_info', 'lithos_agent_list', 'lithos_task_create', 'lithos_task_claim', 'lithos_task_renew',
      'lithos_task_release', 'lithos_task_complete', 'lithos_task_cancel', 'lithos_task_status', 'lithos_task_list', 'lithos_finding_post', 'lithos_finding_list',
    ]);
    for (const def of COORDINATION_TOOLS) {
      expect(TOOL_CATALOG.filter((d) => d.name === def.name)).toHaveLength(1);
      expect(def.description.length).toBeGreaterThan(80);
      expect(def.annotations.openWorldHint).toBe(false);
      expect(inputJsonSchema(def).type).toBe('object');
    }
    const readOnly = COORDINATION_TOOLS.filter((d) => d.annotations.readOnlyHint).map((d) => d.name);
    expect(readOnly).toEqual(['lithos_agent_info', 'lithos_agent_list', 'lithos_task_status', 'lithos_task_list', 'lithos_finding_list']);
    expect(COORDINATION_TOOLS.filter((d) => d.annotations.destructiveHint).map((d) => d.name)).toEqual(['lithos_task_complete', 'lithos_task_cancel']);
    expect(COORDINATION_TOOLS.filter((d) => !d.annotations.idempotentHint).map((d) => d.name)).toEqual(['lithos_task_create', 'lithos_task_cancel', 'lithos_finding_post']);
    expect(inputJsonSchema(COORDINATION_TOOLS[4]).required).toEqual(['task_id', 'aspect']);
  });
});

describe('agents', () => {
  it('auto-register on their first call; register describes them; info shows their live claims; list shows all', async () => {
    const task = await newTask();
    expect(t.engine.services.coordination.agent('agent-a')).toMatchObject({ id: 'agent-a', registered_at: Date.parse(T0) });

    expect(await t.call('lithos_agent_register', { name: 'Agent B', type: 'cursor', metadata: { v: 2 } }, OTHER)).toEqual({
      success: true,
      created: true,
      agent: { id: 'agent-b', name: 'Agent B', type: 'cursor', registered_at: T0, last_seen_at: T0, metadata: { v: 2 } },
    });
    expect((await t.call('lithos_agent_register', { name: 'Agent B2' }, OTHER)).created).toBe(false);

    await t.call('lithos_task_claim', { task_id: task, aspect: 'index' }, OTHER);
    expect(await t.call('lithos_agent_info', { id: 'agent-b' })).toEqual({
      agent: { id: 'agent-b', name: 'Agent B2', type: 'cursor', registered_at: T0, last_seen_at: T0, metadata: { v: 2 } },
      claims: [{ task_id: task, aspect: 'index', agent: 'agent-b', claimed_at: T0, expires_at: '2026-01-01T01:00:00.000Z', remaining_seconds: 3600 }],
      claims_total: 1,
    });
    expect((await t.call('lithos_agent_info', {}, OTHER)).agent.id).toBe('agent-b');
    expect(await codeOf(t.call('lithos_agent_info', { id: 'ghost' }))).toBe('not_found');

    t.clock.advance(10 * MIN);
    await t.call('lithos_agent_list', {}, { kind: 'agent', agent_id: 'agent-c' }); // a read also registers the caller
    expect((await t.call('lithos_agent_list', {})).agents.map((a: { id: string }) => a.id)).toEqual(['agent-a', 'agent-c', 'agent-b']);
    expect((await t.call('lithos_agent_list', { type: 'cursor' })).agents.map((a: { id: string }) => a.id)).toEqual(['agent-b']);
    expect((await t.call('lithos_agent_list', { active_since: '2026-01-01T00:05:00Z' })).agents.map((a: { id: string }) => a.id)).toEqual(['agent-a', 'agent-c']);
  });

  it('an identity comes from the agent argument, else the bridge; without either, acting tools refuse', async () => {
    const err = await failure(t.call('lithos_task_create', { title: 'x' }, NOBODY));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toMatch(/needs to know which agent is acting: pass agent, or start the bridge with --agent/);
    const id = (await t.call('lithos_task_create', { title: 'x', agent: 'per-call' }, NOBODY)).task.created_by;
    expect(id).toBe('per-call');
    expect((await t.call('lithos_task_create', { title: 'y' }, HUMAN)).task.created_by).toBe('human');
  });
});

describe('tasks and claims', () => {
  it('create, claim, renew, release and status have stable shapes', async () => {
    const created = await t.call('lithos_task_create', { title: 'Shrink p95 latency', description: 'Below 30 ms.', tags: ['atlas'], metadata: { prio: 1 } });
    expect(created).toEqual({
      task_id: expect.any(String),
      task: {
        id: created.task_id, title: 'Shrink p95 latency', description: 'Below 30 ms.', status: 'open', created_by: 'agent-a',
        created_at: T0, completed_at: null, tags: ['atlas'], metadata: { prio: 1 },
      },
    });
    const task = created.task_id as string;
    expect(await t.call('lithos_task_claim', { task_id: task, aspect: ' profiling ', ttl_minutes: 30 })).toEqual({
      success: true,
      already_held: false,
      claim: { task_id: task, aspect: 'profiling', agent: 'agent-a', claimed_at: T0, expires_at: '2026-01-01T00:30:00.000Z', remaining_seconds: 1800 },
    });
    t.clock.advance(20 * MIN);
    expect(await t.call('lithos_task_renew', { task_id: task, aspect: 'profiling' })).toMatchObject({
      success: true,
      claim: { expires_at: '2026-01-01T01:20:00.000Z', remaining_seconds: 3600 },
    });
    await t.call('lithos_task_claim', { task_id: task, aspect: 'fix' }, OTHER);
    const status = await t.call('lithos_task_status', { task_id: task });
    expect(Object.keys(status)).toEqual(['task', 'claims', 'findings', 'claims_total', 'findings_total', 'outcome']);
    expect(status.claims.map((c: { aspect: string; agent: string }) => [c.aspect, c.agent])).toEqual([['fix', 'agent-b'], ['profiling', 'agent-a']]);
    expect(status.outcome).toBeNull();
    expect(await t.call('lithos_task_release', { task_id: task, aspect: 'profiling' })).toEqual({ success: true, task_id: task, aspect: 'profiling', agent: 'agent-a' });
    expect((await t.call('lithos_task_status', { task_id: task })).claims).toHaveLength(1);
  });

  it('a held aspect is a conflict naming the holder and expiry; once expired it can be taken', async () => {
    const task = await newTask();
    await t.call('lithos_task_claim', { task_id: task, aspect: 'fix', ttl_minutes: 15 }, OTHER);
    const err = await failure(t.call('lithos_task_claim', { task_id: task, aspect: 'fix' }));
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/held by agent "agent-b" until 2026-01-01T00:15:00\.000Z/);
    expect(err.data).toMatchObject({ held_by: 'agent-b', expires_at: '2026-01-01T00:15:00.000Z' });
    expect(await codeOf(t.call('lithos_task_renew', { task_id: task, aspect: 'fix' }))).toBe('conflict');
    expect(await codeOf(t.call('lithos_task_release', { task_id: task, aspect: 'fix' }))).toBe('conflict');
    t.clock.advance(15 * MIN);
    expect((await t.call('lithos_task_status', { task_id: task })).claims).toEqual([]);
    expect((await t.call('lithos_task_claim', { task_id: task, aspect: 'fix' })).claim.agent).toBe('agent-a');
  });

  it('two agents racing for one aspect through the dispatcher: exactly one wins', async () => {
    const task = await newTask();
    const results = await Promise.allSettled([
      t.call('lithos_task_claim', { task_id: task, aspect: 'fix' }, AGENT),
      t.call('lithos_task_claim', { task_id: task, aspect: 'fix' }, OTHER),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    const holder = (await t.call('lithos_task_status', { task_id: task })).claims[0].agent;
    expect(lost?.reason).toMatchObject({ code: 'conflict', data: { held_by: holder } });
  });

  it('lists tasks with filters, each with its live claims', async () => {
    const a = await newTask('a');
    const b = await newTask('b', OTHER);
    await t.call('lithos_task_create', { title: 'c', tags: ['other'] });
    await t.call('lithos_task_claim', { task_id: a, aspect: 'x' }, OTHER);
    await t.call('lithos_task_complete', { task_id: b }, OTHER);
    const titles = async (args: Record<string, unknown>) => (await t.call('lithos_task_list', args)).tasks.map((x: { title: string }) => x.title);
    expect(await titles({})).toEqual(['c', 'b', 'a']);
    expect(await titles({ status: 'open' })).toEqual(['c', 'a']);
    expect(await titles({ agent: 'agent-b' })).toEqual(['b']);
    expect(await titles({ claimed_by: 'agent-b' })).toEqual(['a']);
    expect(await titles({ tags: ['atlas'] })).toEqual(['b', 'a']);
    expect(await titles({ since: T0, limit: 2 })).toEqual(['c', 'b']);
    const listed = (await t.call('lithos_task_list', { claimed_by: 'agent-b' })).tasks[0];
    expect(listed.claims).toEqual([expect.objectContaining({ aspect: 'x', agent: 'agent-b' })]);
  });
});

describe('completing a task', () => {
  it('resolves cited and misleading notes to ids, records the outcome, releases all claims', async () => {
    const task = await newTask();
    await t.call('lithos_task_claim', { task_id: task, aspect: 'fix' });
    await t.call('lithos_task_claim', { task_id: task, aspect: 'review' }, OTHER);
    const receipt = (await t.call('lithos_retrieve', { query_text: 'connection pool', task_id: task })).receipt_id;
    t.clock.advance(MIN);
    const r = await t.call('lithos_task_complete', {
      task_id: task,
      cited_nodes: [POOL_ID, 'project/atlas/Pool sizing.md'],
      misleading_nodes: ['Index'],
      receipt_id: receipt,
      output_text: 'Raised the pool to 40.',
    });
    expect(r).toEqual({
      success: true,
      task: expect.objectContaining({ id: task, status: 'completed', completed_at: '2026-01-01T00:01:00.000Z' }),
      released_claims: [expect.objectContaining({ aspect: 'fix', agent: 'agent-a' }), expect.objectContaining({ aspect: 'review', agent: 'agent-b' })],
      released_total: 2,
      outcome: {
        agent: 'agent-a', receipt_id: receipt, cited_nodes: [POOL_ID], misleading_nodes: [INDEX_ID],
        output_text: 'Raised the pool to 40.', recorded_at: '2026-01-01T00:01:00.000Z', learned_at: '2026-01-01T00:01:00.000Z',
      },
      feedback: [expect.objectContaining({ receipt_id: receipt, applied: true, used: [POOL_ID], misleading: [INDEX_ID] })],
      feedback_total: 1,
    });
    expect((await t.call('lithos_task_status', { task_id: task })).claims).toEqual([]);
    // Handed to the learning layer at once (test/learning covers the arithmetic).
    expect(t.engine.services.coordination.pendingOutcomes()).toEqual([]);
    expect(t.engine.services.learning.memory.stats.get(POOL_ID).use_count).toBe(1);
    const again = await failure(t.call('lithos_task_complete', { task_id: task }));
    expect(again.code).toBe('conflict');
  });

  it('refuses unknown or hidden notes (all named at once), and a note both cited and misleading, completing nothing', async () => {
    const task = await newTask();
    const err = await failure(t.call('lithos_task_complete', { task_id: task, cited_nodes: [POOL_ID, 'No such note', SECRET_ID] }));
    expect(err.code).toBe('not_found');
    expect(err.data).toEqual({ field: 'cited_nodes', missing: ['No such note', SECRET_ID] });
    const both = await failure(t.call('lithos_task_complete', { task_id: task, cited_nodes: [POOL_ID], misleading_nodes: ['Pool sizing'] }));
    expect(both.code).toBe('invalid_argument');
    expect(await codeOf(t.call('lithos_task_complete', { task_id: 'nope' }))).toBe('not_found');
    expect((await t.call('lithos_task_status', { task_id: task })).task.status).toBe('open');
    // The owner of the private note may cite it.
    expect((await t.call('lithos_task_complete', { task_id: task, cited_nodes: [SECRET_ID] }, OTHER)).outcome.cited_nodes).toEqual([SECRET_ID]);
  });
});

describe('cancelling a task', () => {
  it('its creator or an agent that claimed it may: closed as cancelled, claims lapse, nothing learned; others are refused', async () => {
    const task = await newTask();
    await t.call('lithos_task_claim', { task_id: task, aspect: 'profiling' }, OTHER);
    // An agent neither creator nor on the task may not drop it, not even naming itself 'human'.
    const outsider: ToolCaller = { kind: 'agent', agent_id: 'agent-z' };
    expect((await failure(t.call('lithos_task_cancel', { task_id: task }, outsider))).code).toBe('forbidden');
    expect((await failure(t.call('lithos_task_cancel', { task_id: task, agent: 'human' }, outsider))).code).toBe('forbidden');
    const r = await t.call('lithos_task_cancel', { task_id: task, reason: 'superseded by the pool rewrite' }, OTHER);
    expect(r).toMatchObject({ success: true, task: { id: task, status: 'cancelled' }, released_claims: [expect.objectContaining({ aspect: 'profiling' })] });
    expect((await t.call('lithos_task_status', { task_id: task })).task.status).toBe('cancelled');
    expect(await codeOf(t.call('lithos_task_claim', { task_id: task, aspect: 'more' }))).toBe('conflict');
    expect(await codeOf(t.call('lithos_task_complete', { task_id: task }))).toBe('conflict');
    expect(t.engine.services.coordination.pendingOutcomes()).toEqual([]);
    expect((await t.engine.services.governance.audit.recent({ action: 'task.cancel' }))[0]).toMatchObject({ target: task, data: { reason: 'superseded by the pool rewrite', released: ['profiling'] } });
    // The creator, and the person, may cancel theirs and any.
    expect((await t.call('lithos_task_cancel', { task_id: await newTask('Mine') })).task.status).toBe('cancelled');
    expect((await t.call('lithos_task_cancel', { task_id: await newTask('Theirs') }, HUMAN)).task.status).toBe('cancelled');
  });
});

describe('findings', () => {
  it('are posted with an optional linked note (resolved to its id) and listed oldest first', async () => {
    const task = await newTask();
    const f1 = await t.call('lithos_finding_post', { task_id: task, summary: 'The pool is too small.', knowledge_id: 'project/atlas/Pool sizing.md' });
    expect(f1).toEqual({
      finding_id: expect.any(String),
      finding: { id: f1.finding_id, task_id: task, agent: 'agent-a', summary: 'The pool is too small.', knowledge_id: POOL_ID, created_at: T0 },
    });
    t.clock.advance(MIN);
    await t.call('lithos_finding_post', { task_id: task, summary: 'Index missing too.' }, OTHER);
    expect((await t.call('lithos_finding_list', { task_id: task })).findings.map((f: { agent: string }) => f.agent)).toEqual(['agent-a', 'agent-b']);
    expect((await t.call('lithos_finding_list', { task_id: task, since: '2026-01-01T00:00:30Z' })).findings).toHaveLength(1);
    expect((await t.call('lithos_task_status', { task_id: task })).findings).toHaveLength(2);
  });

  it("a finding or outcome naming a note the reader may not see names none for that reader (the owner still sees it)", async () => {
    const task = await newTask();
    await t.call('lithos_finding_post', { task_id: task, summary: 'See my notes.', knowledge_id: SECRET_ID }, OTHER);
    expect((await t.call('lithos_finding_list', { task_id: task }, AGENT)).findings[0].knowledge_id).toBeNull();
    expect((await t.call('lithos_finding_list', { task_id: task }, OTHER)).findings[0].knowledge_id).toBe(SECRET_ID);
    await t.call('lithos_task_complete', { task_id: task, cited_nodes: [SECRET_ID, POOL_ID] }, OTHER);
    const status = await t.call('lithos_task_status', { task_id: task }, AGENT);
    expect(status.findings[0].knowledge_id).toBeNull();
    expect(status.outcome.cited_nodes).toEqual([POOL_ID]);
    expect((await t.call('lithos_task_status', { task_id: task }, HUMAN)).outcome.cited_nodes).toEqual([SECRET_ID, POOL_ID]);
  });

  it('a linked note must exist and be visible to the poster', async () => {
    const task = await newTask();
    expect(await codeOf(t.call('lithos_finding_post', { task_id: task, summary: 's', knowledge_id: 'No such note' }))).toBe('not_found');
    expect(await codeOf(t.call('lithos_finding_post', { task_id: task, summary: 's', knowledge_id: SECRET_ID }))).toBe('not_found');
    expect((await t.call('lithos_finding_post', { task_id: task, summary: 's', knowledge_id: SECRET_ID }, OTHER)).finding.knowledge_id).toBe(SECRET_ID);
    expect(await codeOf(t.call('lithos_finding_post', { task_id: 'nope', summary: 's' }))).toBe('not_found');
    expect(await codeOf(t.call('lithos_finding_list', { task_id: 'nope' }))).toBe('not_found');
    expect(await codeOf(t.call('lithos_task_status', { task_id: 'nope' }))).toBe('not_found');
  });
});

describe('bad arguments are invalid_argument and change nothing', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['lithos_agent_register', { id: '' }],
    ['lithos_agent_register', { metadata: 'x' }],
    ['lithos_agent_register', { id: 'a', unknown_field: 1 }],
    ['lithos_agent_info', { id: 5 }],
    ['lithos_agent_list', { active_since: 'yesterday' }],
    ['lithos_task_create', {}],
    ['lithos_task_create', { title: '   ' }],
    ['lithos_task_create', { title: 'x', tags: 'atlas' }],
    ['lithos_task_create', { title: 'two\nlines' }],
    ['lithos_task_claim', { task_id: 'TASK' }],
    ['lithos_task_claim', { task_id: 'TASK', aspect: 'x', ttl_minutes: 0 }],
    ['lithos_task_claim', { task_id: 'TASK', aspect: 'x', ttl_minutes: 481 }],
    ['lithos_task_claim', { task_id: 'TASK', aspect: 'x', ttl_minutes: 2.5 }],
    ['lithos_task_claim', { task_id: 'TASK', aspect: 'x'.repeat(201) }],
    ['lithos_task_renew', { task_id: 'TASK', aspect: 'x', ttl_minutes: '60' }],
    ['lithos_task_release', { task_id: 'TASK' }],
    ['lithos_task_complete', { task_id: 'TASK', cited_nodes: 'abc' }],
    ['lithos_task_complete', { task_id: 'TASK', cited_nodes: [''] }],
    ['lithos_task_complete', { task_id: 'TASK', receipt_id: '' }],
    ['lithos_task_status', {}],
    ['lithos_task_list', { status: 'done' }],
    ['lithos_task_list', { limit: 0 }],
    ['lithos_finding_post', { task_id: 'TASK' }],
    ['lithos_finding_post', { task_id: 'TASK', summary: '  ' }],
    ['lithos_finding_list', { task_id: 'TASK', since: 'not a date' }],
  ];

  const labelled = cases.map(([tool, args]) => [`${tool} ${JSON.stringify(args).slice(0, 70)}`, tool, args] as const);
  it.each(labelled)('%s', async (_label, tool, raw) => {
    const task = await newTask();
    const args = JSON.parse(JSON.stringify(raw).replace(/"TASK"/g, JSON.stringify(task))) as Record<string, unknown>;
    const before = JSON.stringify([t.engine.services.coordination.counts(), t.engine.services.coordination.agents(), t.engine.services.coordination.tasks()]);
    const err = await failure(t.call(tool, args));
    expect(err.code).toBe('invalid_argument');
    expect(err.message.length).toBeGreaterThan(10);
    expect(JSON.stringify([t.engine.services.coordination.counts(), t.engine.services.coordination.agents(), t.engine.services.coordination.tasks()])).toBe(before);
  });
});
