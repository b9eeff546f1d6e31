/**
 * Feedback arguments shared by lithos_feedback and lithos_task_complete: receipts looked up and gated,
 * node references checked against what those receipts returned, then applied per receipt.
 */
import { z } from 'zod';
import { LithosError } from '../../errors';
import { applyFeedback, checkFeedbackNodes, type FeedbackResult } from '../../learning/feedback';
import type { Receipt } from '../../retrieval/types';
import type { ToolContext } from '../types';
import { allowFor, viewerOf } from '../knowledge/common';

export const acceptedArg = z
  .boolean()
  .optional()
  .describe('Whether the person accepted your output, if you know.');

export interface PlannedFeedback {
  receipts: Receipt[];
  /** Applies the feedback to each receipt (each at most once, ever). */
  apply(): Promise<FeedbackResult[]>;
}

/** The receipt as the caller may see it; not_found when it does not exist or the caller may not see it. */
export async function visibleReceipt(ctx: ToolContext, receiptId: string): Promise<Receipt> {
  const r = await ctx.memory.receipts.get(receiptId);
  // Feedback counts once per receipt: another agent giving it would spend (and could skew) what the
  // retrieving agent learns. Its own receipts, or those of a task it is on.
  if (ctx.caller.kind === 'agent' && r.agent_id !== ctx.caller.agent_id) {
    const onTask = r.task_id !== null && viewerOf(ctx).tasks?.includes(r.task_id);
    if (!onTask) {
      throw new LithosError('forbidden', `Receipt ${receiptId} is another agent's retrieval${r.task_id ? ` (task ${r.task_id}, which you are not on)` : ''}: give feedback on your own receipts.`, { receipt_id: receiptId });
    }
  }
  return r;
}

/**
 * Checks everything before anything is written. `strict`: every cited/misleading node must be among the
 * final nodes of one of the receipts (invalid_argument naming the others); receipts inferred from a task
 * only take the nodes they hold.
 */
export async function planFeedback(
  ctx: ToolContext,
  a: { receipts: Receipt[]; strict: boolean; cited: string[]; misleading: string[]; output_text?: string; accepted?: boolean; agent: string | null; task: string | null },
): Promise<PlannedFeedback> {
  const inAny = new Set(a.receipts.flatMap((r) => r.final_nodes.map((n) => n.id)));
  if (a.strict) {
    for (const [field, ids] of [['cited', a.cited], ['misleading', a.misleading]] as const) {
      const outside = ids.filter((id) => !inAny.has(id));
      if (outside.length) {
        const which = a.receipts.map((r) => r.receipt_id).join(', ');
        throw new LithosError('invalid_argument', `${field}: ${outside.map((id) => `"${noteName(ctx, id)}"`).join(', ')} ${outside.length === 1 ? 'was' : 'were'} not returned by receipt ${which}.`, {
          field,
          nodes: outside,
          receipt_ids: a.receipts.map((r) => r.receipt_id),
        });
      }
    }
  }
  const perReceipt = a.receipts.map((r) => {
    const finals = new Set(r.final_nodes.map((n) => n.id));
    const cited = a.cited.filter((id) => finals.has(id));
    const misleading = a.misleading.filter((id) => finals.has(id));
    checkFeedbackNodes(r, cited, misleading);
    return { r, cited, misleading };
  });
  return {
    receipts: a.receipts,
    apply: async () => {
      const out: FeedbackResult[] = [];
      for (const { r, cited, misleading } of perReceipt) {
        out.push(await applyFeedback(ctx.engine, { receipt_id: r.receipt_id, cited, misleading, output_text: a.output_text, accepted: a.accepted, agent: a.agent, task: a.task }));
      }
      return out;
    },
  };
}

/** A reference (id, path, title or alias) as a node id; unknown or hidden references stay as written. */
export function refToId(ctx: ToolContext, ref: string, visible: (id: string) => boolean): string {
  const n = ctx.engine.note(ref);
  return n && visible(n.nodeId) ? n.nodeId : ref;
}

/** A note named in an error: its title only when the caller may see it (else the id as given, like an unknown one). */
function noteName(ctx: ToolContext, id: string): string {
  const n = ctx.engine.note(id);
  return n && n.nodeId === id && allowFor(ctx)(id) ? `${n.cached.meta.title || n.path} (${id})` : id;
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
    misleading: r.misleading,
    quarantined: r.quarantined,
    edges_reinforced: r.edges_reinforced,
    edges_weakened: r.edges_weakened,
    coactivation_pairs: r.coactivation_pairs,
  };
}
