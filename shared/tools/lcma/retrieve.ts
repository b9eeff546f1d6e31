import { z } from 'zod';
import { INTENTS, QUERY_CLASSES } from '../../retrieval/types';
import { MAX_K, MAX_QUERY_CHARS } from '../../retrieval/constants';
import { touchCaller } from '../coordination/common';
import { defineTool } from '../knowledge/common';
import type { ToolAnnotations } from '../types';

const input = z.strictObject({
  query_text: z.string().trim().min(1).max(10_000).describe(`What you need memory for, in plain words (the task, the question, the decision). Longer text is cut at ${MAX_QUERY_CHARS} characters.`),
  namespace_filter: z
    .union([z.string().trim().min(1), z.array(z.string().trim().min(1)).max(50)])
    .optional()
    .describe('Only notes under these namespace prefixes, by whole segments ("project" matches "project/atlas"). Default: everything you may see.'),
  task_id: z.string().trim().min(1).max(200).optional().describe('The task you are working on (lithos_task_create/lithos_task_list): recorded on the receipt and in the task\'s working memory. Notes scoped to a task are visible to agents on it: claim an aspect (lithos_task_claim) to join; naming the task here does not.'),
  query_class: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe(`Kind of work, which tunes the ranking: ${QUERY_CLASSES.join(', ')} (default lookup), or your own word. design, synthesis and decision may add an interpretive pass by your model when the results disagree.`),
  intent: z
    .enum(INTENTS)
    .optional()
    .describe('What to favour: continuity (recent context), fact_check (most relevant), frequent (notes that proved useful), associative (related ideas), explore (serendipity).'),
  max_context_nodes: z.number().int().min(1).max(MAX_K).optional().describe(`How many notes to return (default 10, 1–${MAX_K}).`),
  surface_conflicts: z.boolean().optional().describe('List the conflicts (contradicts edges) among the returned notes. Default: true for query_class design, decision, synthesis and debug, false otherwise.'),
});

/** Each call adds a receipt and bumps retrieval counts of the notes returned: not read-only, not idempotent. */
const RETRIEVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export const lithosRetrieve = defineTool({
  name: 'lithos_retrieve',
  title: 'Retrieve memory for a task',
  description: [
    'Gather memory for a task: use it before you design, debug, plan, write or decide something, to get the notes that matter.',
    'It ranks with many signals at once (words, meaning, tags, links, typed edges, recency, notes used together, structural analogies, what proved useful before),',
    'explains why each note was chosen (reasons, scouts, score terms), surfaces contradictions, writes a receipt and learns from the feedback you give later.',
    'When you finish, pass the result\'s receipt_id to lithos_task_complete with the notes you cited and those that misled you.',
    'For a quick keyword lookup use lithos_search instead (it learns nothing); to open a note use lithos_read.',
    'Returns {nodes:[{id, path, title, note_type, namespace, score, reasons, scouts, terms}], temperature, coherence, terrace_reached, terrace2:{wanted, why, outcome}, conflicts, receipt_id, …}.',
  ].join(' '),
  input,
  annotations: RETRIEVE,
  async handler(a: z.infer<typeof input>, ctx) {
    await touchCaller(ctx);
    const human = ctx.caller.kind === 'human';
    const agent = human ? 'human' : ctx.caller.agent_id;
    const namespaces = a.namespace_filter === undefined ? undefined : Array.isArray(a.namespace_filter) ? a.namespace_filter : [a.namespace_filter];
    return ctx.engine.retrieve(
      {
        query_text: a.query_text,
        namespace_filter: namespaces,
        agent_id: agent ?? undefined,
        task_id: a.task_id,
        query_class: a.query_class,
        intent: a.intent,
        max_context_nodes: a.max_context_nodes,
        surface_conflicts: a.surface_conflicts,
      },
      { viewer: ctx.engine.viewerFor(human ? ctx.caller : { kind: 'agent', agent_id: agent }, a.task_id ?? null), interpreter: ctx.interpreter },
    );
  },
});
