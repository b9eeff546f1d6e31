import { failure } from '../twins/error-code';
import { receiptOf } from '../learning/consolidation-fixture';
import { PERSON, type SessionCaller } from '../../shared/session/caller';
import { ALICE, BOB, CAROL, openScopeVault, type ScopeVault } from '../governance/scope-vault';

/**
 * The tasks room: coordination as a session uses it. Tasks are open to every agent; the room judges who acts
 * and the notes a task's findings, outcome and citations name.
 */

let v: ScopeVault;
beforeEach(async () => {
  v = await openScopeVault();
});
afterEach(async () => {
  await v.engine.close();
});

const room = async (caller: SessionCaller) => (await v.engine.as(caller)).tasks;

describe('who acts', () => {
  it('the session’s agent, else the agent a call names, else `human` for the person; registered on first use', async () => {
    expect(await (await room(ALICE)).acting(undefined, 'lithos_task_claim')).toBe('alice');
    expect(await (await room({ kind: 'agent', agent_id: null })).acting('erin', 'lithos_task_claim')).toBe('erin');
    expect(v.engine.services.coordination.agent('erin')).toMatchObject({ id: 'erin' });
    expect(await (await room(PERSON)).acting(undefined, 'lithos_task_claim')).toBe('human');
    expect(await failure((await room({ kind: 'agent', agent_id: null })).acting(undefined, 'lithos_task_claim'))).toMatchObject({
      code: 'invalid_argument',
      message: 'lithos_task_claim needs to know which agent is acting: pass agent, or start the bridge with --agent <id> (or LITHOS_AGENT_ID).',
    });
  });

  it('touch registers the session’s agent; the person and an unnamed agent register nobody', async () => {
    const before = v.engine.services.coordination.agents().length;
    await (await room(PERSON)).touch();
    await (await room({ kind: 'agent', agent_id: null })).touch();
    expect(v.engine.services.coordination.agents()).toHaveLength(before);
    await (await room({ kind: 'agent', agent_id: 'frank' })).touch();
    expect(v.engine.services.coordination.agent('frank')).toMatchObject({ id: 'frank' });
  });

  it('a cancellation is audited with its reason, as the acting agent or the person', async () => {
    const bob = await room(BOB);
    const r = await bob.cancel(v.taskT, 'bob', 'superseded by U');
    expect(r.task.status).toBe('cancelled');
    expect(r.released.map((c) => c.aspect)).toEqual(['tests']);
    const person = await room(PERSON);
    const u = await person.cancel(v.taskU, await person.acting(undefined, 'lithos_task_cancel'), null);
    const entries = (await v.engine.services.governance.audit.recent({ action: 'task.cancel' })).map((e) => ({ actor: e.actor, target: e.target, data: e.data }));
    expect(entries).toEqual([
      { actor: { kind: 'human', id: null }, target: u.task.id, data: { reason: null, released: [] } },
      { actor: { kind: 'agent', id: 'bob' }, target: v.taskT, data: { reason: 'superseded by U', released: ['tests'] } },
    ]);
  });
});

describe('notes named on a task', () => {
  it('a reference is judged as the acting agent on that task: its notes for agents on it, nothing that agent may not see', async () => {
    const alice = await room(ALICE);
    expect(alice.visibleNote(v.path.task, 'alice', v.taskT)?.nodeId).toBe(v.id.task);
    expect(alice.visibleNote(v.id.task, 'carol', v.taskT)).toBeNull();
    expect(alice.visibleNote(v.path.user_private, 'alice', v.taskT)).toBeNull();
    expect(alice.visibleNote('No such note', 'alice', v.taskT)).toBeNull();
    // The person acting as itself sees every note; naming an agent, it is judged as that agent.
    const person = await room(PERSON);
    expect(person.visibleNote(v.path.user_private, 'human', v.taskT)?.nodeId).toBe(v.id.user_private);
    expect(person.visibleNote(v.path.user_private, 'alice', v.taskT)).toBeNull();
  });

  it('findings and the outcome name only notes the viewer may see', async () => {
    const co = v.engine.services.coordination;
    await co.postFinding({ task_id: v.taskT, agent: 'alice', summary: 'see the task note', knowledge_id: v.id.task });
    await co.postFinding({ task_id: v.taskT, agent: 'alice', summary: 'shared', knowledge_id: v.id.shared });
    await co.completeTask(v.taskT, 'alice', { cited_nodes: [v.id.task, v.id.shared], misleading_nodes: [v.id.agent_private] });
    const knowledge = async (c: SessionCaller) => (await room(c)).findings(v.taskT).map((f) => f.knowledge_id);
    expect(await knowledge(ALICE)).toEqual([v.id.task, v.id.shared]);
    expect(await knowledge(CAROL)).toEqual([null, v.id.shared]);
    expect((await room(ALICE)).outcome(v.taskT)).toMatchObject({ cited_nodes: [v.id.task, v.id.shared], misleading_nodes: [v.id.agent_private] });
    expect((await room(CAROL)).outcome(v.taskT)).toMatchObject({ cited_nodes: [v.id.shared], misleading_nodes: [] });
    expect((await room(CAROL)).outcome(v.taskU)).toBeNull();
  });
});

describe('after a completion', () => {
  it('receiptsFor gives the agent’s own retrievals for the task', async () => {
    const mine = receiptOf(v, [v.id.shared], { agent_id: 'alice', task_id: v.taskT });
    await v.engine.services.retrieval.receipts.append(mine);
    await v.engine.services.retrieval.receipts.append(receiptOf(v, [v.id.shared], { agent_id: 'bob', task_id: v.taskT }));
    await v.engine.services.retrieval.receipts.append(receiptOf(v, [v.id.shared], { agent_id: 'alice', task_id: v.taskU }));
    expect((await (await room(ALICE)).receiptsFor(v.taskT, 'alice')).map((r) => r.receipt_id)).toEqual([mine.receipt_id]);
  });

  it('an agent the bridge named acts as itself only: naming another agent is refused', async () => {
    await expect((await room(ALICE)).acting('bob', 'lithos_task_claim')).rejects.toMatchObject({ code: 'forbidden', data: { field: 'agent' } });
    await expect((await room(ALICE)).acting('alice', 'lithos_task_claim')).resolves.toBe('alice');
    await expect((await room(PERSON)).acting('bob', 'lithos_task_claim')).resolves.toBe('bob');
  });
});
