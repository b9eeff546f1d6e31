import { z } from 'zod';
import { defineTool } from '../knowledge/common';
import type { ToolAnnotations } from '../types';
import { touchCaller } from '../coordination/common';
import { acceptedArg, feedbackJson } from './feedback-args';

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
    'Say which notes of a lithos_retrieve result you used and which misled you: one cheap call that makes later retrievals better for every agent (3 misleading marks quarantine a note).',
    'Optional: implicit signals count otherwise. Only notes the receipt returned; once per receipt (again: applied false).',
  ].join(' '),
  input,
  annotations: FEEDBACK,
  async handler(a: z.infer<typeof input>, ctx) {
    await touchCaller(ctx);
    return feedbackJson(await ctx.memory.learning.feedback(a));
  },
});
