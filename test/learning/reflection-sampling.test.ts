import { note } from '../engine/harness';
import { AGENT, FIXTURE, HUMAN, openTools, type ToolHarness } from '../tools/fixture';
import { PROMPT, parseWording, type Sampler } from '../../shared/learning/reflection-wording';
import type { Proposal } from '../../shared/governance/proposals';

/**
 * Reflection's sampling pass (shared/learning/reflection-wording.ts): where the MCP client offers sampling,
 * its model words each repeated procedure the rule-based pass found — or rejects it. The rule-based grouping
 * stays the source of candidates and steps; the model's answer is bounded and checked, and on a timeout, a
 * refusal or a malformed answer the rule-based text stands. Proposals go through the proposal flow as ever.
 * The sampler here is a twin of the MCP client's (bridge/mcp/reflection-sampler.ts, tested end to end in
 * test/bridge/mcp/reflect-sampling.test.ts).
 */
const FILES: Record<string, string> = {
  ...FIXTURE,
  'runbooks/Deploy checklist.md': note({ title: 'Deploy checklist', access_scope: 'shared', tags: ['deploys'] }, 'Check the canary before the rollout.\n'),
  'agent/agent-a/Canary log.md': note({ title: 'Canary log', access_scope: 'agent_private', author: 'agent-a' }, 'Canary runs.\n'),
};
const STEPS = ['lithos_task_create', 'lithos_task_claim', 'lithos_finding_post', 'lithos_task_complete'];
const WORDED = {
  accept: true,
  title: 'Roll out a deploy behind a canary',
  context: 'Deploying a service where a canary can catch a bad release.',
  trigger: 'A release is ready to deploy.',
  steps: ['Open a task for the release', 'Claim the rollout', 'Report the canary result', 'Close the task citing the checklist'],
};

let h: ToolHarness;
beforeEach(async () => {
  h = await openTools(FILES);
});
afterEach(() => h.engine.close());

/** A sampler twin: answers each prompt with `answer(prompt)` and records the prompts. */
function twin(answer: (prompt: string) => Promise<string> | string): Sampler & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    prompts,
    sample: async ({ prompt }) => {
      prompts.push(prompt);
      return answer(prompt);
    },
  };
}

async function deploy(title: string, tag = 'deploys', cite = 'runbooks/Deploy checklist.md'): Promise<void> {
  const id = ((await h.call('lithos_task_create', { title, tags: [tag] })) as { task_id: string }).task_id;
  for (const [tool, args] of [['lithos_task_claim', { aspect: 'rollout' }], ['lithos_finding_post', { summary: 'Canary green.' }], ['lithos_task_complete', { cited_nodes: [cite] }]] as const) {
    h.clock.advance(1000);
    await h.call(tool, { task_id: id, ...args }, AGENT);
  }
}

/** A note only agent-a may see: tasks citing it are withheld from reflection until the person shares it. */
const CANARY = 'agent/agent-a/Canary log.md';
async function shareCanary(): Promise<void> {
  await h.vault.write(CANARY, note({ title: 'Canary log', access_scope: 'shared', author: 'agent-a' }, 'Canary runs.\n'));
  await h.engine.reconcile();
}

const pending = async (): Promise<Proposal[]> => (await h.engine.services.governance.proposals.list({ status: 'pending' })).proposals;
const reflect = () => h.engine.services.learning.reflect({ kind: 'human', id: null });

test('the model words the procedure the rules found: title, context, trigger and one line per step, each naming its tool', async () => {
  const sampler = twin(() => JSON.stringify(WORDED));
  h.engine.services.learning.setSampler(sampler);
  for (const t of ['Deploy api 1.2', 'Deploy api 1.3', 'Deploy web 4.0']) await deploy(t);

  const [p, ...more] = await pending();
  expect(more).toEqual([]);
  expect(p.request.fields).toMatchObject({
    title: 'Roll out a deploy behind a canary',
    note_type: 'workflow',
    access_scope: 'shared',
    context: WORDED.context,
    trigger: WORDED.trigger,
    method: WORDED.steps.map((s, i) => `${i + 1}. ${s} (${STEPS[i]})`).join('\n'),
  });
  expect(p.request.content).toContain("the MCP client's model worded it");
  // One bounded prompt: the group, the rule-based steps in order, the tasks' titles.
  expect(sampler.prompts).toHaveLength(1);
  expect(sampler.prompts[0]).toContain('3 completed tasks on "deploys" took the same 4 steps');
  expect(sampler.prompts[0]).toContain(STEPS.map((s, i) => `${i + 1}. ${s}`).join('\n'));
  expect(sampler.prompts[0]).toContain('- Deploy web 4.0');
  expect(sampler.prompts[0].length).toBeLessThan(2000);
  const [audit] = await h.engine.services.governance.audit.recent({ action: 'reflect.propose', limit: 1 });
  expect(audit.data).toMatchObject({ steps: STEPS, wording: 'model' });

  // Accepted, the worded method still names every step in order: it covers the procedure.
  await h.call('lithos_proposal_accept', { proposal_id: p.proposal_id }, HUMAN);
  expect((await reflect()).procedures.map((q) => q.status)).toEqual(['covered']);
  expect(sampler.prompts).toHaveLength(1); // a covered procedure is not asked about
});

test('the model may reject a candidate: no proposal, audited, and it is not asked again', async () => {
  const sampler = twin(() => '{"accept": false, "why": "Every task is created, claimed and closed; that is the tool, not a workflow."}');
  h.engine.services.learning.setSampler(sampler);
  for (const t of ['Deploy a', 'Deploy b', 'Deploy c']) await deploy(t);
  expect(await pending()).toEqual([]);
  const [rejected] = await h.engine.services.governance.audit.recent({ action: 'reflect.reject', limit: 5 });
  expect(rejected.data).toMatchObject({ group: 'deploys', steps: STEPS, why: expect.stringContaining('not a workflow') });
  expect((await reflect()).procedures).toEqual([expect.objectContaining({ status: 'rejected', note: expect.stringContaining('not a workflow'), proposal_id: null })]);
  expect(sampler.prompts).toHaveLength(1);
});

test.each([
  ['not JSON', 'Sure! Here is a workflow: deploy carefully.', 'the answer is not JSON'],
  ['a step missing', JSON.stringify({ ...WORDED, steps: WORDED.steps.slice(1) }), '"steps" must be 4 lines of text'],
  ['a title over its limit', JSON.stringify({ ...WORDED, title: 'x'.repeat(81) }), '"title", "context" and "trigger" must each be one line'],
  ['a refusal', null, 'sampling failed: the person declined'],
])('garbage from the model (%s): the rule-based text stands, and the report says why', async (_, answer, why) => {
  h.engine.services.learning.setSampler(
    twin(() => {
      if (answer === null) throw new Error('the person declined');
      return answer;
    }),
  );
  for (const t of ['Deploy a', 'Deploy b', 'Deploy c']) await deploy(t, 'deploys', CANARY);
  await shareCanary(); // so one pass of our own finds the candidate, and its report is ours to read
  const r = await reflect();
  expect(r.procedures).toEqual([expect.objectContaining({ status: 'proposed', wording: 'rule', note: expect.stringContaining(why) })]);
  const [p] = await pending();
  expect(p.request.fields).toMatchObject({ title: 'deploys: 4-step procedure', method: STEPS.map((s, i) => `${i + 1}. ${s}`).join('\n') });
  expect(p.request.content).toContain('a rule-based pass, no model');
  const [audit] = await h.engine.services.governance.audit.recent({ action: 'reflect.propose', limit: 1 });
  expect(audit.data).toMatchObject({ wording: 'rule' });
});

test('a model that never answers: after the timeout the rule-based text is proposed', async () => {
  let asked!: () => void;
  const waiting = new Promise<void>((r) => (asked = r));
  h.engine.services.learning.setSampler({
    sample: () => {
      asked();
      return new Promise<string>(() => undefined);
    },
  });
  for (const t of ['Deploy a', 'Deploy b']) await deploy(t);
  const third = deploy('Deploy c'); // its completion reflects, and waits on the model
  await waiting;
  h.clock.advance(PROMPT.timeout_ms);
  await third;
  const [p] = await pending();
  expect(p.request.fields).toMatchObject({ title: 'deploys: 4-step procedure' });
  expect((await reflect()).procedures).toEqual([expect.objectContaining({ status: 'already_proposed' })]);
});

test('at most PROMPT.per_run candidates are put to the model in one pass; the rest keep the rule-based text', async () => {
  const sampler = twin((prompt) => JSON.stringify({ ...WORDED, title: `Worded ${/on "([^"]+)"/.exec(prompt)![1]}` }));
  h.engine.services.learning.setSampler(sampler);
  // While the note the tasks cite is agent-a's own, not every agent may see it: the tasks are withheld, no candidate yet.
  const groups = Array.from({ length: PROMPT.per_run + 1 }, (_, i) => `group-${i}`);
  for (const g of groups) for (const t of ['a', 'b', 'c']) await deploy(`${g} ${t}`, g, CANARY);
  expect(sampler.prompts).toEqual([]);
  await shareCanary();

  const r = await reflect(); // one pass, every group a new candidate
  expect(r.procedures.map((p) => p.status)).toEqual(groups.map(() => 'proposed'));
  expect(sampler.prompts).toHaveLength(PROMPT.per_run);
  expect(r.procedures.filter((p) => p.wording === 'model')).toHaveLength(PROMPT.per_run);
  expect(r.procedures.filter((p) => p.wording === 'rule')).toEqual([expect.objectContaining({ note: `at most ${PROMPT.per_run} candidates are worded by the model per pass` })]);
});

test('parseWording takes a fenced JSON answer and refuses text spanning lines', () => {
  expect(parseWording('```json\n' + JSON.stringify(WORDED) + '\n```', STEPS)).toMatchObject({ ok: true, outcome: { kind: 'model' } });
  expect(parseWording(JSON.stringify({ ...WORDED, trigger: 'one\ntwo' }), STEPS)).toMatchObject({ ok: false });
  expect(parseWording('{"accept": false}', STEPS)).toEqual({ ok: false, why: 'a rejection without a "why"' });
  expect(parseWording('[1]', STEPS)).toEqual({ ok: false, why: 'the answer has no "accept": true or false' });
});
