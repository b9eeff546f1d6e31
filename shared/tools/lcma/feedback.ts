import { z } from 'zod';
import { LithosError } from '../../errors';
import { allowFor, defineTool } from '../knowledge/common';
import type { ToolAnnotations } from '../types';
import { touchCaller } from '../coordination/common';
import { acceptedArg, feedbackJson, planFeedback, refToId, visibleReceipt } from './feedback-args';

const refs = (what: string) => z.array(z.string().trim().min(1).max(500)).max(200).optional().describe(what);

const input = z.strictObject({
  receipt_id: z.string().trim().min(1).max(200).describe('The receipt_id lithos_retrieve returned.'),
  cited: refs('Notes from that result you actually used (ids, paths or titles).'),
  misleading: refs('Notes from that result that were wrong or led you astray. A note cannot be both cited and misleading.'),
  output_text: z.string().max(100_000).optional().describe('Your answer or work; notes it clearly draws on count as used even if you did not cite them.'),
  accepted: acceptedArg,
  task_id: z.string().trim().min(1).max(200).optional().describe('The task this was for, recorded with the feedback.'),
});

/** Feedback for a receipt counts once: a second call changes nothing and says so (applied: false). */
const FEEDBACK: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const lithosFeedback = defineTool({
  name: 'lithos_feedback',
  title: 'Tell memory what helped',
  description: [
    'Say which notes of a lithos_retrieve result you used and which misled you. It is cheap (one call, no text needed) and makes later retrievals better for every agent:',
    'used notes gain salience and links to each other, notes shown but not used lose a little weight for this kind of query, misleading notes lose more and are quarantined after 3 marks.',
    'Without it memory still learns from implicit signals (your output text, follow-up queries in the same task, lithos_task_complete), so give it when you can, skip it when you cannot.',
    'Only notes the receipt returned may be named (others are an invalid_argument). Feedback for a receipt counts once; repeating it returns applied: false.',
    'Returns {receipt_id, applied, query_class, used, supported_by_output, ignored, misleading, quarantined, edges_reinforced, edges_weakened, coactivation_pairs}.',
  ].join(' '),
  input,
  annotations: FEEDBACK,
  async handler(a: z.infer<typeof input>, ctx) {
    await touchCaller(ctx);
    const receipt = await visibleReceipt(ctx, a.receipt_id);
    const visible = allowFor(ctx);
    const cited = [...new Set((a.cited ?? []).map((r) => refToId(ctx, r, visible)))];
    const misleading = [...new Set((a.misleading ?? []).map((r) => refToId(ctx, r, visible)))];
    // A note the receipt returned but that has left the vault since: not_found, as lithos_task_complete says.
    const gone = [...cited, ...misleading].filter((id) => ctx.engine.note(id) === null && receipt.final_nodes.some((n) => n.id === id));
    if (gone.length) throw new LithosError('not_found', `No note ${gone.map((g) => `"${g}"`).join(', ')} any more (deleted since the retrieval).`, { missing: gone });
    const plan = await planFeedback(ctx, {
      receipts: [receipt],
      strict: true,
      cited,
      misleading,
      output_text: a.output_text,
      accepted: a.accepted,
      agent: ctx.caller.kind === 'human' ? null : ctx.caller.agent_id,
      task: a.task_id ?? receipt.task_id,
    });
    const [r] = await plan.apply();
    return feedbackJson(r);
  },
});
