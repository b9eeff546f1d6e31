import { z } from 'zod';
import { LithosError } from '../../errors';
import { allowFor, defineTool } from '../knowledge/common';
import type { ToolAnnotations } from '../types';
import { touchCaller } from '../coordination/common';
import { acceptedArg, feedbackJson, planFeedback, refToId, visibleReceipt } from './feedback-args';

const refs = (what: string) => z.array(z.string().trim().min(1).max(500)).max(200).optional().describe(what);

const input = z.strictObject({
  receipt_id: z.string().trim().min(1).max(200).describe('From lithos_retrieve.'),
  cited: refs('Notes of that result you used (ids, paths or titles).'),
  misleading: refs('Notes of that result that were wrong or misled you.'),
  output_text: z.string().max(100_000).optional().describe('Your answer: notes it draws on count as used.'),
  accepted: acceptedArg,
  task_id: z.string().trim().min(1).max(200).optional().describe('The task this was for.'),
});

/** Feedback for a receipt counts once: a second call changes nothing and says so (applied: false). */
const FEEDBACK: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const lithosFeedback = defineTool({
  name: 'lithos_feedback',
  title: 'Tell memory what helped',
  description: [
    'Say which notes of a lithos_retrieve result you used and which misled you: one cheap call that makes later retrievals better for every agent (misleading notes lose weight; 3 marks quarantine one).',
    'Optional: implicit signals count otherwise. Name only notes the receipt returned. Counts once per receipt (again: applied false).',
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
