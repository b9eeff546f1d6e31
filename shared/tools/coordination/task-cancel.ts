import { z } from 'zod';
import { agentArg, claimJson, releasedJson, defineTool, taskIdArg, taskJson } from './common';

const input = z.strictObject({
  task_id: taskIdArg,
  reason: z.string().trim().min(1).max(2000).optional().describe('Why it is dropped (kept in the audit trail).'),
  agent: agentArg,
});

export const lithosTaskCancel = defineTool({
  name: 'lithos_task_cancel',
  title: 'Cancel a task',
  description: [
    'Drop an open task that will not be done: it is closed as cancelled, every claim on it lapses, and nothing is learned from it (unlike lithos_task_complete).',
    'Only the agent that created it or one that claimed an aspect of it may cancel it. Returns {success, task, released_claims}.',
  ].join(' '),
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(a: z.infer<typeof input>, ctx) {
    const tasks = ctx.memory.tasks;
    const agent = await tasks.acting(a.agent, 'lithos_task_cancel');
    const r = await tasks.cancel(a.task_id, agent, a.reason ?? null);
    const now = tasks.now();
    return { success: true, task: taskJson(r.task, false), ...releasedJson(r.released.map((c) => claimJson(c, now))) };
  },
});
