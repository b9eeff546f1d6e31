import { z } from 'zod';
import { LIMITS } from '../../coordination/coordination-validate';
import { TASK_STATUSES } from '../../coordination/coordination-types';
import { claimJson, defineTool, isoArg, nowOf, READ_ONLY, taskJson, touchCaller } from './common';

const input = z.strictObject({
  status: z.enum(TASK_STATUSES).optional().describe('Only tasks in this status.'),
  agent: z.string().trim().min(1).max(LIMITS.agentId).optional().describe('Only tasks this agent created.'),
  claimed_by: z.string().trim().min(1).max(LIMITS.agentId).optional().describe('Only tasks on which this agent holds a live claim.'),
  tags: z.array(z.string().trim().min(1).max(LIMITS.tag)).max(LIMITS.tags).optional().describe('Only tasks carrying every one of these tags.'),
  since: isoArg('Only tasks created at or after this time (ISO 8601).'),
  limit: z.number().int().min(1).max(1000).optional().describe('At most this many tasks (default 100).'),
});

export const lithosTaskList = defineTool({
  name: 'lithos_task_list',
  title: 'List tasks',
  description: [
    'Tasks newest first, filtered by status (open, completed, cancelled), creator (agent), live claimant (claimed_by), tags and creation time.',
    'Each task carries its live claims, so you can see which aspects are taken without calling lithos_task_status for each. Returns {tasks}.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    await touchCaller(ctx);
    const store = ctx.engine.coordination;
    const tasks = store.tasks({
      status: a.status,
      createdBy: a.agent,
      claimedBy: a.claimed_by,
      tags: a.tags,
      since: a.since === undefined ? undefined : Date.parse(a.since),
      limit: a.limit,
    });
    const now = nowOf(ctx);
    return { tasks: tasks.map((t) => ({ ...taskJson(t), claims: store.liveClaims(t.id).map((c) => claimJson(c, now)) })) };
  },
});
