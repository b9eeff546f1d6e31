import { z } from 'zod';
import { agentArg, aspectArg, claimJson, defineTool, IDEMPOTENT_WRITE, taskIdArg, ttlArg } from './common';

const input = z.strictObject({ task_id: taskIdArg, aspect: aspectArg, ttl_minutes: ttlArg, agent: agentArg });

export const lithosTaskClaim = defineTool({
  name: 'lithos_task_claim',
  title: 'Claim an aspect of a task',
  description: [
    'Take one aspect of an open task so no other agent works on it at the same time. Two agents never hold the same aspect:',
    'if another agent holds it, the call fails with a conflict naming the holder and when its claim expires; choose another aspect or wait.',
    'Claims lapse on their own after ttl_minutes (default 60, max 480): renew with lithos_task_renew while you work, release with lithos_task_release when done.',
    'Claiming an aspect you already hold just restarts its TTL, so retrying is safe. Returns {success, already_held, claim}.',
  ].join(' '),
  input,
  annotations: IDEMPOTENT_WRITE,
  async handler(a: z.infer<typeof input>, ctx) {
    const tasks = ctx.memory.tasks;
    const agent = await tasks.acting(a.agent, 'lithos_task_claim');
    const r = await tasks.claim({ task_id: a.task_id, aspect: a.aspect, agent, ttl_minutes: a.ttl_minutes });
    return { success: true, already_held: r.already_held, claim: claimJson(r.claim, tasks.now()) };
  },
});
