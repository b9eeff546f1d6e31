/**
 * Feedback pieces shared by lithos_feedback and lithos_task_complete. Which receipt a caller may report on,
 * and the checks before feedback is written, are the session's (session/learning-room.ts); these keep the
 * shapes tools share.
 */
import { z } from 'zod';
import type { FeedbackResult } from '../../learning/feedback';
import type { Receipt } from '../../retrieval/types';
import type { FeedbackPlanInput, PlannedFeedback } from '../../session/learning-room';
import type { ToolContext } from '../types';

export const acceptedArg = z
  .boolean()
  .optional()
  .describe('Whether the person accepted your output, if you know.');

/** The receipt the caller may report on (session/learning-room.ts `reportable`). */
export function visibleReceipt(ctx: ToolContext, receiptId: string): Promise<Receipt> {
  return ctx.memory.learning.reportable(receiptId);
}

/** Feedback checked before anything is written (session/learning-room.ts `plan`). */
export async function planFeedback(ctx: ToolContext, a: FeedbackPlanInput): Promise<PlannedFeedback> {
  return ctx.memory.learning.plan(a);
}

/** What a tool returns about the feedback it applied. */
export function feedbackJson(r: FeedbackResult) {
  return {
    receipt_id: r.receipt_id,
    applied: r.applied,
    query_class: r.query_class,
    used: r.used,
    supported_by_output: r.supported,
    ignored: r.ignored,
    exploration_passed_over: r.exploration,
    misleading: r.misleading,
    quarantined: r.quarantined,
    edges_reinforced: r.edges_reinforced,
    edges_weakened: r.edges_weakened,
    coactivation_pairs: r.coactivation_pairs,
  };
}
