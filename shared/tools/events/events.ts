import { z } from 'zod';
import { EVENT_KINDS, EVENT_STATUSES } from '../../model/events';
import { READ_ONLY, defineTool } from '../knowledge/common';
import { cursorArg, cursorOf, cursorStarts, takePage } from '../text-budget';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

const time = (what: string) => z.string().trim().min(1).max(64).optional().describe(`${what}: ISO time or a time ago (30m, 2h, 3d, 1w).`);

const input = z.strictObject({
  kinds: z.array(z.enum(EVENT_KINDS)).min(1).max(EVENT_KINDS.length).optional().describe('Only these kinds.'),
  since: time('At or after'),
  until: time('Before'),
  note: z.string().trim().min(1).max(500).optional().describe('Only events linked to this note (id or path).'),
  status: z.enum(EVENT_STATUSES).optional().describe('active or archived (default both).'),
  limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT).describe('Page size.'),
  cursor: cursorArg,
});

export const lithosEvents = defineTool({
  name: 'lithos_events',
  title: 'Episodic events',
  description: [
    'Episodic events, newest first: tool calls, sessions, task steps, errors, observations, milestones, commits, external edits.',
    'Only those you may read (your own, your tasks\', shared). Read-only. Returns {events:[…], next_cursor}.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const [start] = cursorStarts(a.cursor, 1, 'lithos_events');
    // The page, plus one to know whether another follows.
    const shown = ctx.memory.events.list({ kinds: a.kinds, since: a.since, until: a.until, note: a.note, status: a.status }, start + a.limit + 1);
    const { page, next } = takePage(shown.slice(start, start + a.limit), 0, a.limit);
    const more = next !== null || shown.length > start + page.length;
    return { events: page, next_cursor: more ? cursorOf([start + page.length]) : null };
  },
});
