import { z } from 'zod';
import { INTENTS, QUERY_CLASSES } from '../../retrieval/types';
import { MAX_K, MAX_QUERY_CHARS } from '../../retrieval/constants';
import { spaceTags } from '../../index/space-capabilities';
import { touchCaller } from '../coordination/common';
import { NAMESPACE_PREFIXES, defineTool } from '../knowledge/common';
import type { ToolAnnotations } from '../types';

const input = z.strictObject({
  query_text: z.string().trim().min(1).max(10_000).describe(`The task or question, in plain words (cut at ${MAX_QUERY_CHARS} characters).`),
  namespace_filter: z
    .union([z.string().trim().min(1), z.array(z.string().trim().min(1)).max(50)])
    .optional()
    .describe(NAMESPACE_PREFIXES),
  task_id: z.string().trim().min(1).max(200).optional().describe('Your task, recorded on the receipt.'),
  query_class: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe(`Kind of work: ${QUERY_CLASSES.join(', ')} (default lookup) or your own word.`),
  intent: z
    .enum(INTENTS)
    .optional()
    .describe('What to favour.'),
  max_context_nodes: z.number().int().min(1).max(MAX_K).optional().describe('How many notes (default 10).'),
  surface_conflicts: z.boolean().optional().describe('List contradictions among the notes (default: design, decision, synthesis, debug).'),
  try: z.boolean().optional().describe('Try the query without teaching memory: no receipt is written, nothing is learned, feedback is impossible (result try: true).'),
});

/** Each call (but a try) adds a receipt and bumps retrieval counts of the notes returned: not read-only, not idempotent. */
const RETRIEVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export const lithosRetrieve = defineTool({
  name: 'lithos_retrieve',
  title: 'Retrieve memory for a task',
  description: [
    'Gather memory before you design, debug, plan, write or decide: the notes that matter, ranked by words, vectors, links, edges, recency and past use, each with why, and the contradictions among them.',
    'Vectors match meaning only with a semantic model (`spaces` says).',
    'Returns {nodes, conflicts, receipt_id, spaces, …}; when done, report on the receipt with lithos_feedback (or lithos_task_complete) so memory learns.',
  ].join(' '),
  input,
  annotations: RETRIEVE,
  async handler(a: z.infer<typeof input>, ctx) {
    await touchCaller(ctx);
    const human = ctx.caller.kind === 'human';
    const agent = human ? 'human' : ctx.caller.agent_id;
    const namespaces = a.namespace_filter === undefined ? undefined : Array.isArray(a.namespace_filter) ? a.namespace_filter : [a.namespace_filter];
    const result = await ctx.memory.retrieve(
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
      { interpreter: ctx.interpreter, try: a.try },
    );
    return { ...result, spaces: spaceTags(ctx.memory.index.spaces()) };
  },
});
