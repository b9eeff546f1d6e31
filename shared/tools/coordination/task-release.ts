import { z } from 'zod';
import { agentArg, aspectArg, defineTool, IDEMPOTENT_WRITE, taskIdArg } from './common';

const input = z.strictObject({ task_id: taskIdArg, aspect: aspectArg, agent: agentArg });

export const lithosTaskRelease = defineTool({
  name: 'lithos_task_release',
  title: 'Release a claim',
  description: [
    'Give up an aspect you hold so another agent can take it at once. Only the holder can release.',
    'Completing the task (lithos_task_complete) releases every claim on it, so you need not release first. Returns {success, task_id, aspect, agent}.',
  ].join(' '),
  input,
  annotations: IDEMPOTENT_WRITE,
  async handler(a: z.infer<typeof input>, ctx) {
    const agent = await ctx.memory.tasks.acting(a.agent, 'lithos_task_release');
    const released = await ctx.memory.tasks.release({ task_id: a.task_id, aspect: a.aspect, agent });
    return { success: true, task_id: released.task_id, aspect: released.aspect, agent: released.agent_id };
  },
});
