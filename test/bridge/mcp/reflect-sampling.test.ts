import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { cli } from '../run-cli';
import { buildBridge, connect, samplingClient, toolJson } from './built-bridge';
import { eventually } from '../../eventually';
import { startCatalogHost } from './catalog-host';

/**
 * Reflection's sampling pass end to end (shared/learning/reflection-wording.ts over
 * bridge/mcp/reflection-sampler.ts): the BUILT `lithos mcp`, headless, driven by the SDK's Client over stdio.
 * An agent completes three tasks the same way; the third completion's consolidation reflects, and a client
 * that declared sampling is asked to word the procedure its rules found. A client without sampling, or one
 * answering garbage, gets the rule-based proposal. Either way it waits in the proposal flow for the person.
 * Relayed to Obsidian, the plugin's engine asks the bridge (`sample` during the completing call) the same way.
 */
let build: ReturnType<typeof buildBridge>;
let root: string;
let vault: string;

beforeAll(() => {
  build = buildBridge();
}, 60_000);
afterAll(() => build?.cleanup());

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-reflect-sampling-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'runbooks'), { recursive: true });
  writeFileSync(join(vault, 'runbooks/Deploy checklist.md'), '---\ntitle: Deploy checklist\naccess_scope: shared\n---\nCheck the canary.\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const STEPS = ['lithos_task_create', 'lithos_task_claim', 'lithos_finding_post', 'lithos_task_complete'];
const WORDED = {
  accept: true,
  title: 'Deploy behind a canary',
  context: 'Releasing a service whose canary can catch a bad build.',
  trigger: 'A release is ready.',
  steps: ['Open a task for the release', 'Claim the rollout', 'Report the canary', 'Close it citing the checklist'],
};

/** Three tasks done the same way, then the client hangs up; the proposals as the person lists them. */
async function threeDeploys(client: Client | undefined, relayed = false): Promise<Array<{ request: { fields: Record<string, unknown>; content: string } }>> {
  const s = await connect(build.cli, vault, { agent: 'agent-a', tools: 'full', client });
  try {
    for (const title of ['Deploy api', 'Deploy web', 'Deploy docs']) {
      const id = toolJson(await s.client.callTool({ name: 'lithos_task_create', arguments: { title, tags: ['deploys'] } })).task_id as string;
      toolJson(await s.client.callTool({ name: 'lithos_task_claim', arguments: { task_id: id, aspect: 'rollout' } }));
      toolJson(await s.client.callTool({ name: 'lithos_finding_post', arguments: { task_id: id, summary: 'Canary green.' } }));
      toolJson(await s.client.callTool({ name: 'lithos_task_complete', arguments: { task_id: id, cited_nodes: ['runbooks/Deploy checklist.md'] } })); // the third reflects
    }
  } finally {
    await s.client.close();
  }
  if (!relayed) await eventually(() => !existsSync(join(vault, '.lithos/lock.json')), () => 'the bridge still holds the vault');
  return (await cli('proposals', vault, '--json')).json().proposals;
}

test('a client with sampling: its model words the procedure, in one bounded request', async () => {
  const asked: CreateMessageRequest['params'][] = [];
  const [p, ...more] = await threeDeploys(samplingClient(() => JSON.stringify(WORDED), asked));
  expect(more).toEqual([]);
  expect(p.request.fields).toMatchObject({
    title: 'Deploy behind a canary',
    note_type: 'workflow',
    context: WORDED.context,
    trigger: WORDED.trigger,
    method: WORDED.steps.map((s, i) => `${i + 1}. ${s} (${STEPS[i]})`).join('\n'),
  });
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ maxTokens: 800, includeContext: 'none', temperature: 0 });
  const prompt = (asked[0].messages[0].content as { type: 'text'; text: string }).text;
  expect(prompt).toContain('3 completed tasks on "deploys" took the same 4 steps');
  expect(prompt).toContain('- Deploy docs');
}, 60_000);

test('a client without sampling, or one answering garbage: the rule-based proposal', async () => {
  const [plain] = await threeDeploys(undefined);
  expect(plain.request.fields).toMatchObject({ title: 'deploys: 4-step procedure', method: STEPS.map((s, i) => `${i + 1}. ${s}`).join('\n') });

  rmSync(join(vault, '.lithos'), { recursive: true, force: true }); // the same vault, afresh
  const asked: CreateMessageRequest['params'][] = [];
  const [garbled] = await threeDeploys(samplingClient(() => 'I would call it "deploying". Hope that helps!', asked));
  expect(asked).toHaveLength(1);
  expect(garbled.request.fields).toMatchObject({ title: 'deploys: 4-step procedure' });
  expect(garbled.request.content).toContain('a rule-based pass, no model');
}, 90_000);

test('relayed to the plugin: its engine asks the bridge\'s client to word the procedure, during the completing call', async () => {
  const host = await startCatalogHost(vault);
  try {
    const asked: CreateMessageRequest['params'][] = [];
    const [p] = await threeDeploys(samplingClient(() => JSON.stringify(WORDED), asked), true);
    expect(host.calls.filter((c) => c.tool === 'lithos_task_complete')).toHaveLength(3); // relayed, not headless
    expect(asked).toHaveLength(1);
    expect(p.request.fields).toMatchObject({ title: 'Deploy behind a canary', method: WORDED.steps.map((s, i) => `${i + 1}. ${s} (${STEPS[i]})`).join('\n') });
  } finally {
    await host.stop();
  }
}, 60_000);
