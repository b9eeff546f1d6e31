import { z } from 'zod';
import { LIMITS } from '../../coordination/coordination-validate';
import { TASK_STATUSES } from '../../coordination/coordination-types';
import { cursorOf, cursorStarts, takePage, cursorArg } from '../text-budget';
import { boundedList, claimJson, defineTool, isoArg, READ_ONLY, taskJson } from './common';

const input = z.strictObject({
  status: z.enum(TASK_STATUSES).optional().describe('Only tasks in this status.'),
  agent: z.string().trim().min(1).max(LIMITS.agentId).optional().describe('Only tasks this agent created.'),
  claimed_by: z.string().trim().min(1).max(LIMITS.agentId).optional().describe('Only tasks on which this agent holds a live claim.'),
  tags: z.array(z.string().trim().min(1).max(LIMITS.tag)).max(LIMITS.tags).optional().describe('Only tasks carrying every one of these tags.'),
  since: isoArg('Only tasks created at or after this time (ISO 8601).'),
  limit: z.number().int().min(1).max(1000).optional().describe('At most this many tasks (default 100).'),
  cursor: cursorArg,
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
    const room = ctx.memory.tasks;
    await room.touch();
    const limit = a.limit ?? 100;
    const [start] = cursorStarts(a.cursor, 1, 'lithos_task_list');
    // One more than the page, to know whether another follows (the store reads at most 1000).
    const tasks = room.tasks({
      status: a.status,
      createdBy: a.agent,
      claimedBy: a.claimed_by,
      tags: a.tags,
      since: a.since === undefined ? undefined : Date.parse(a.since),
      limit: Math.min(1000, start + limit + 1),
    });
    const now = room.now();
    const shown = tasks.slice(start, start + limit).map((t) => {
      const claims = boundedList(room.liveClaims(t.id).map((c) => claimJson(c, now)), 2_000);
      return { ...taskJson(t, false), claims: claims.items, ...(claims.items.length < claims.total ? { claims_total: claims.total } : {}) };
    });
    const { page, next } = takePage(shown, 0, limit);
    const more = next !== null || tasks.length > start + limit;
    return { tasks: page, next_cursor: more ? cursorOf([start + page.length]) : null };
  },
});
