import { z } from 'zod';
import { AGENT_EVENT_KINDS, EVENT_LIMITS } from '../../model/events';
import { EVENT_SCOPES } from '../../session/events-room';
import { defineTool } from '../knowledge/common';
import type { ToolAnnotations } from '../types';

const ADDITIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

const input = z.strictObject({
  kind: z.enum(AGENT_EVENT_KINDS as [string, ...string[]]).describe('session, trajectory (a step of a task), error, observation, or milestone (kept for good).'),
  summary: z.string().trim().min(1).max(EVENT_LIMITS.summary_chars).describe('What happened, in a line. Never a secret.'),
  data: z.record(z.string(), z.unknown()).optional().describe(`A little JSON (at most ${EVENT_LIMITS.data_chars} characters).`),
  links: z.array(z.string().trim().min(1).max(500)).max(EVENT_LIMITS.links).optional().describe('Notes it is about (ids or paths); a linked event is kept for good.'),
  scope: z.enum(EVENT_SCOPES).optional().describe('Who may read it (default agent_private: you and the person).'),
  task_id: z.string().trim().min(1).max(200).optional().describe('The task of a task-scoped event.'),
  namespace: z.string().trim().min(1).max(200).optional().describe('The namespace of a project-scoped event.'),
});

export const lithosEventRecord = defineTool({
  name: 'lithos_event_record',
  title: 'Record an episodic event',
  description: [
    'Record a short-lived event of your work (a session, a step of a task, an error, an observation) apart from the notes;',
    'it is archived after the vault\'s TTL unless it links to a note or is a milestone. Your tool calls are recorded for you.',
    'Returns {event}.',
  ].join(' '),
  input,
  annotations: ADDITIVE,
  async handler(a: z.infer<typeof input>, ctx) {
    const event = await ctx.memory.events.record({
      kind: a.kind as (typeof AGENT_EVENT_KINDS)[number],
      summary: a.summary,
      ...(a.data === undefined ? {} : { data: a.data }),
      ...(a.links === undefined ? {} : { links: a.links }),
      ...(a.scope === undefined ? {} : { scope: a.scope }),
      ...(a.task_id === undefined ? {} : { task_id: a.task_id }),
      ...(a.namespace === undefined ? {} : { namespace: a.namespace }),
    });
    return { event };
  },
});
