import { note } from '../engine/harness';
import { AGENT, FIXTURE, HUMAN, OTHER, SECRET_ID, openTools, type ToolHarness } from '../tools/fixture';
import type { ToolCaller } from '../../shared/tools/types';
import { REFLECTION } from '../../shared/learning/reflection';
import type { Proposal } from '../../shared/governance/proposals';

/**
 * Reflection (docs/ledger.md, "Reflection"): a rule-based pass over completed tasks' trajectories (their
 * agents' tool calls for the task, in order) proposes a workflow note for each procedure repeated in
 * REFLECTION.min_tasks tasks of one group; the person accepts it in the Proposals panel.
 */
const FILES: Record<string, string> = {
  ...FIXTURE,
  'runbooks/Deploy checklist.md': note({ title: 'Deploy checklist', access_scope: 'shared', tags: ['deploys'] }, 'Check the canary before the rollout.\n'),
};
const STEPS = ['lithos_task_create', 'lithos_task_claim', 'lithos_retrieve', 'lithos_write(hypothesis)', 'lithos_finding_post', 'lithos_task_complete'];

let h: ToolHarness;
beforeEach(async () => {
  h = await openTools(FILES);
});
afterEach(async () => {
  await h.engine.close();
});

/** One task on `deploys` done the same way: create, claim, retrieve, write a hypothesis, post a finding, complete citing `cite`. */
async function deploy(title: string, who: ToolCaller = AGENT, cite = 'runbooks/Deploy checklist.md', tag = 'deploys'): Promise<string> {
  const id = ((await h.call('lithos_task_create', { title, tags: [tag] }, who)) as { task_id: string }).task_id;
  const step = async (tool: string, args: Record<string, unknown>): Promise<void> => {
    h.clock.advance(1000); // each step at its own time, so the order is the engine clock's
    await h.call(tool, { task_id: id, ...args }, who);
  };
  await step('lithos_task_claim', { aspect: 'rollout' });
  await step('lithos_retrieve', { query_text: 'deploy checklist canary' });
  h.clock.advance(1000);
  await h.call('lithos_write', { title: `${title} canary`, note_type: 'hypothesis', content: 'The canary holds.\n' }, who); // a call naming no task
  await step('lithos_finding_post', { summary: 'Canary green.' });
  await step('lithos_task_complete', { cited_nodes: [cite] });
  return id;
}

const reflect = () => h.engine.services.learning.reflect({ kind: 'human', id: null });
const pending = async (): Promise<Proposal[]> => (await h.engine.services.governance.proposals.list({ status: 'pending' })).proposals;
const auditActions = (action: string) => h.engine.services.governance.audit.recent({ action, limit: 100 });

test('three completed tasks with the same steps give one workflow proposal, its method in order', async () => {
  const ids = [await deploy('Deploy api 1.2'), await deploy('Deploy api 1.3')];
  expect(await pending()).toEqual([]);
  ids.push(await deploy('Deploy web 4.0')); // its completion's consolidation reflects
  const [p, ...more] = await pending();
  expect(more).toEqual([]);
  expect(p).toMatchObject({ agent: REFLECTION.agent, request: { mode: 'create' } });
  expect(p.request.fields).toMatchObject({ note_type: 'workflow', state: 'current', access_scope: 'shared', method: STEPS.map((s, i) => `${i + 1}. ${s}`).join('\n') });
  expect(p.request.fields.context).toContain('Deploy api 1.2');
  expect(p.request.fields.trigger).toContain('deploys');
  for (const id of ids) expect(p.request.content).toContain(id); // evidence: the tasks
  expect(p.request.content).toContain('[[runbooks/Deploy checklist]]'); // and the note they cited
  expect(await auditActions('reflect.propose')).toEqual([expect.objectContaining({ target: p.proposal_id, actor: { kind: 'agent', id: 'agent-a' }, data: expect.objectContaining({ steps: STEPS, tasks: ids }) })]);
  expect((await reflect()).procedures).toEqual([expect.objectContaining({ group: 'deploys', steps: STEPS, tasks: ids, path: p.path, status: 'already_proposed' })]);

  // Accepted in the panel, it is a workflow entry with its W ID, which covers the procedure from then on.
  await h.call('lithos_proposal_accept', { proposal_id: p.proposal_id }, HUMAN);
  const written = h.engine.services.notes.noteAtPath(p.path)!;
  expect(written.cached.meta.ledger).toMatchObject({ kind: 'workflow', state: 'current', ledger_id: expect.stringMatching(/^W\d{3}-/) });
  expect((await reflect()).procedures.map((q) => q.status)).toEqual(['covered']);
});

test('two tasks are not enough; tasks of another group or with other steps do not add up', async () => {
  await deploy('Deploy api 1.2');
  await deploy('Deploy api 1.3');
  await deploy('Index rebuild', AGENT, 'runbooks/Deploy checklist.md', 'indexing'); // same steps, another group
  const other = ((await h.call('lithos_task_create', { title: 'Quick fix', tags: ['deploys'] })) as { task_id: string }).task_id;
  h.clock.advance(1000);
  await h.call('lithos_task_complete', { task_id: other }); // one step only
  expect((await reflect()).procedures).toEqual([]);
  expect(await pending()).toEqual([]);
});

test('a second run proposes nothing new, nor a run after the proposal was rejected', async () => {
  for (const t of ['a', 'b', 'c']) await deploy(`Deploy ${t}`);
  await reflect();
  expect((await reflect()).procedures.map((p) => p.status)).toEqual(['already_proposed']);
  expect(await pending()).toHaveLength(1);
  await h.call('lithos_proposal_reject', { proposal_id: (await pending())[0].proposal_id, reason: 'not yet' }, HUMAN);
  expect((await reflect()).procedures.map((p) => p.status)).toEqual(['already_proposed']);
  expect(await auditActions('reflect.propose')).toHaveLength(1);
});

test('a task the person completed is not learned from', async () => {
  await deploy('Deploy a');
  await deploy('Deploy b');
  const id = ((await h.call('lithos_task_create', { title: 'Deploy c', tags: ['deploys'] })) as { task_id: string }).task_id;
  await h.call('lithos_task_complete', { task_id: id }, HUMAN);
  expect(await reflect()).toMatchObject({ tasks_read: 3, tasks_by_person: 1, procedures: [] });
});

test('a procedure a current workflow already spells is covered, not proposed', async () => {
  await h.engine.services.notes.writeNote({
    path: 'runbooks/Deploying.md',
    mode: 'create',
    content: 'How we deploy.\n',
    fields: { title: 'Deploying', note_type: 'workflow', context: 'releases', method: 'Create it (lithos_task_create), claim it (lithos_task_claim), then lithos_retrieve, lithos_write(hypothesis), lithos_finding_post, lithos_task_complete.' },
    actor: null,
  });
  for (const t of ['a', 'b', 'c']) await deploy(`Deploy ${t}`);
  expect((await reflect()).procedures.map((p) => p.status)).toEqual(['covered']);
  expect(await pending()).toEqual([]);
});

test('a task naming a note not every agent may see never leaks into a proposal', async () => {
  await deploy('Deploy api 1.2');
  await deploy('Deploy api 1.3');
  await deploy('Rotate the zebra key', OTHER, SECRET_ID); // agent-b cites its private note
  expect(await reflect()).toMatchObject({ tasks_read: 3, tasks_withheld: 1, procedures: [] });
  expect(await pending()).toEqual([]);
  await deploy('Deploy web 4.0');
  const [p, ...more] = await pending();
  expect(more).toEqual([]);
  expect(p.request.content).toContain('Deploy web 4.0');
  const text = JSON.stringify(p);
  expect(text).not.toMatch(/zebra|Secret plan|agent-b/);
  expect(text).not.toContain(SECRET_ID);
});

test('consolidation reflects: after a task completion, and on a run of its own without repeating itself', async () => {
  expect((await reflect()).procedures).toEqual([]);
  for (const t of ['a', 'b', 'c']) await deploy(`Deploy ${t}`);
  expect(await pending()).toHaveLength(1); // the third completion's consolidation
  await h.engine.services.learning.consolidator.run({ actor: { kind: 'human', id: null } });
  expect(await pending()).toHaveLength(1); // and again: nothing new
});
