import { z } from 'zod';
import type { ToolAnnotations } from '../types';
import { defineTool } from '../knowledge/common';

const ref = (what: string) => z.string().trim().min(1).max(200).optional().describe(what);

const input = z.strictObject({
  task: ref('Consolidate this task\'s working memory only.'),
  agent: ref('Consolidate this agent\'s tasks and task-less retrievals of the last 24 h.'),
});

/** Writes (edges, concept notes, summaries), but running it again on the same material changes nothing. */
const CONSOLIDATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const lithosConsolidate = defineTool({
  name: 'lithos_consolidate',
  title: 'Consolidate memory',
  description: [
    'Turn recent working memory into lasting structure now: strengthen related_to edges among notes used together at least twice,',
    'promote hypotheses cited on two completed tasks and not contradicted, form or update concept notes from notes repeatedly used together,',
    'and refresh summaries of summary and concept notes whose material changed. It also runs on its own when a task completes and on a schedule,',
    'so call it only when you want the result at once. Give task or agent to narrow it; neither consolidates everything from the last 24 h.',
    'Idempotent. Returns counts and the ids of notes created or changed (those you may see).',
  ].join(' '),
  input,
  annotations: CONSOLIDATE,
  handler(a: z.infer<typeof input>, ctx) {
    return ctx.memory.learning.consolidate({ task: a.task, agent: a.agent });
  },
});
