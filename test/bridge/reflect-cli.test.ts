import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './run-cli';
import { openJobVault } from '../../bridge/open-vault';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { silentLogger } from '../../shared/ports';

/** `lithos reflect <vault>` on a real folder: three tasks done the same way by an agent, one workflow proposal. */
let root: string;
let vault: string;
const AGENT = { kind: 'agent' as const, agent_id: 'claude' };

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'lithos-reflect-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'runbooks'), { recursive: true });
  writeFileSync(join(vault, 'runbooks/Deploy checklist.md'), '---\ntitle: Deploy checklist\naccess_scope: shared\n---\nCheck the canary.\n');
  const v = await openJobVault(vault, 'mcp', { write: true, logger: silentLogger });
  try {
    await v.engine.reconcile();
    const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: v.engine, deleteTo: 'trash_folder' }));
    for (const title of ['Deploy api', 'Deploy web', 'Deploy docs']) {
      const id = ((await tools.call('lithos_task_create', { title, tags: ['deploys'] }, AGENT)) as { task_id: string }).task_id;
      await tools.call('lithos_task_claim', { task_id: id, aspect: 'rollout' }, AGENT);
      await tools.call('lithos_finding_post', { task_id: id, summary: 'Canary green.' }, AGENT);
      await tools.call('lithos_task_complete', { task_id: id, cited_nodes: ['runbooks/Deploy checklist.md'] }, AGENT);
    }
  } finally {
    await v.close();
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const STEPS = ['lithos_task_create', 'lithos_task_claim', 'lithos_finding_post', 'lithos_task_complete'];

test('the third completion proposed the procedure; --json reports it, and a run proposes nothing new', async () => {
  const listed = (await cli('proposals', vault, '--json')).json();
  expect(JSON.stringify(listed)).toContain('"note_type":"workflow"');
  const r = await cli('reflect', vault, '--json');
  expect(r.code).toBe(0);
  expect(r.json()).toMatchObject({ tasks_read: 3, tasks_withheld: 0, tasks_by_person: 0, procedures: [{ group: 'deploys', steps: STEPS, status: 'already_proposed' }] });
  const text = await cli('reflect', vault);
  expect(text.out).toMatch(new RegExp(`already_proposed\\s+deploys\\s+3\\s+${STEPS.join(' → ')}`));
  expect(JSON.stringify((await cli('proposals', vault, '--json')).json())).toEqual(JSON.stringify(listed));
});
