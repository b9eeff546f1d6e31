import { z } from 'zod';
import { agentArg, aspectArg, claimJson, defineTool, IDEMPOTENT_WRITE, taskIdArg, ttlArg } from './common';

const input = z.strictObject({ task_id: taskIdArg, aspect: aspectArg, ttl_minutes: ttlArg, agent: agentArg });

export const lithosTaskRenew = defineTool({
  name: 'lithos_task_renew',
  title: 'Renew a claim',
  description: [
    'Keep an aspect you hold: its claim now expires ttl_minutes from now (default 60, max 480). Only the holder can renew;',
    'a claim that already expired cannot be renewed (not_found): claim the aspect again. Returns {success, claim}.',
  ].join(' '),
  input,
  annotations: IDEMPOTENT_WRITE,
  async handler(a: z.infer<typeof input>, ctx) {
    const tasks = ctx.memory.tasks;
    const agent = await tasks.acting(a.agent, 'lithos_task_renew');
    const claim = await tasks.renew({ task_id: a.task_id, aspect: a.aspect, agent, ttl_minutes: a.ttl_minutes });
    return { success: true, claim: claimJson(claim, tasks.now()) };
  },
});
