import { z } from 'zod';
import { LithosError } from '../../errors';
import { LIMITS } from '../../coordination/coordination-validate';
import type { ToolAnnotations, ToolContext } from '../types';
import { agentArg, boundedList, claimJson, releasedJson, defineTool, outcomeJson, taskIdArg, taskJson } from './common';
import { LIST_MAX_CHARS } from '../text-budget';
import { acceptedArg, feedbackJson, planFeedback, visibleReceipt } from '../lcma/feedback-args';
import type { Receipt } from '../../retrieval/types';

const nodes = (what: string) =>
  z.array(z.string().trim().min(1).max(LIMITS.nodeRef)).max(LIMITS.nodes).optional().describe(what);

const input = z.strictObject({
  task_id: taskIdArg,
  cited_nodes: nodes('Notes that helped: ids (or paths/titles) of notes you actually used in your output.'),
  misleading_nodes: nodes('Notes that were wrong or led you astray (ids, paths or titles). A note cannot be both cited and misleading.'),
  receipt_id: z.string().trim().min(1).max(LIMITS.receiptId).optional().describe('The receipt_id lithos_retrieve returned for this task, so what you cite is matched to what you were shown.'),
  receipt_ids: z.array(z.string().trim().min(1).max(LIMITS.receiptId)).max(50).optional().describe('Several receipt_ids, when you retrieved more than once for this task.'),
  output_text: z.string().max(LIMITS.outputText).optional().describe('Your final answer or work summary; notes it draws on count as used even if not cited.'),
  accepted: acceptedArg,
  agent: agentArg,
});

/** Completing changes the task for every agent on it (their claims are released), and only once. */
const COMPLETE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/** Each reference as the id of a note the agent may see; all unknown references are named in one error. */
function resolveNodes(ctx: ToolContext, field: string, refs: string[] | undefined, agent: string, taskId: string): string[] {
  const ids: string[] = [];
  const missing: string[] = [];
  for (const ref of refs ?? []) {
    const note = ctx.memory.tasks.visibleNote(ref, agent, taskId);
    if (!note) missing.push(ref);
    else if (!ids.includes(note.nodeId)) ids.push(note.nodeId);
  }
  if (missing.length) {
    throw new LithosError('not_found', `${field}: no note ${missing.map((m) => `"${m}"`).join(', ')}. Cite notes by the ids lithos_retrieve or lithos_search returned.`, {
      field,
      missing,
    });
  }
  return ids;
}

export const lithosTaskComplete = defineTool({
  name: 'lithos_task_complete',
  title: 'Complete a task',
  description: [
    'Mark an open task completed and release every claim on it. Report what the memory did for you: cited_nodes (notes you used),',
    'misleading_nodes (notes that were wrong), the receipt_id from lithos_retrieve and your output_text.',
    'This is how Lithos learns which notes help, as lithos_feedback does: cheap, and optional — without receipt ids the task\'s own retrievals are used, and with no feedback at all memory still learns from implicit signals.',
    'With receipt ids every cited or misleading note must be one those retrievals returned (invalid_argument otherwise), and a receipt made for another task is refused; an unknown receipt is not_found. Nothing is completed when the call fails.',
    'A task completes once; completing it again is a conflict. Returns {success, task, released_claims, outcome, feedback, feedback_total}.',
  ].join(' '),
  input,
  annotations: COMPLETE,
  async handler(a: z.infer<typeof input>, ctx) {
    const room = ctx.memory.tasks;
    const agent = await room.acting(a.agent, 'lithos_task_complete');
    if (!room.task(a.task_id)) throw new LithosError('not_found', `No task ${a.task_id}.`, { task_id: a.task_id });
    const cited = resolveNodes(ctx, 'cited_nodes', a.cited_nodes, agent, a.task_id);
    const misleading = resolveNodes(ctx, 'misleading_nodes', a.misleading_nodes, agent, a.task_id);
    // Everything is checked before the task is completed, so a bad receipt or node completes nothing.
    const ids = [...new Set([...(a.receipt_id ? [a.receipt_id] : []), ...(a.receipt_ids ?? [])])];
    const receipts: Receipt[] = [];
    for (const id of ids) {
      const r = await visibleReceipt(ctx, id);
      // A retrieval made for another task would teach this task's consolidation what that one used.
      if (r.task_id !== null && r.task_id !== a.task_id) {
        throw new LithosError('invalid_argument', `Receipt ${id} is a retrieval for task ${r.task_id}, not ${a.task_id}: pass it when completing that task (or lithos_feedback for it).`, { receipt_id: id, task_id: r.task_id });
      }
      receipts.push(r);
    }
    // An empty or blank output is no output (the schema lets it through; the outcome store keeps only text).
    const output = a.output_text !== undefined && a.output_text.trim() !== '' ? a.output_text : undefined;
    const evidence = cited.length + misleading.length > 0 || output !== undefined || a.accepted !== undefined;
    if (ids.length === 0 && evidence) receipts.push(...(await room.receiptsFor(a.task_id, agent)));
    const plan = await planFeedback(ctx, {
      receipts,
      strict: ids.length > 0,
      cited,
      misleading,
      output_text: output,
      accepted: a.accepted,
      agent: agent === 'human' ? null : agent,
      task: a.task_id,
    });
    const r = await room.complete(a.task_id, agent, { cited_nodes: cited, misleading_nodes: misleading, receipt_id: ids[0], output_text: output });
    const feedback = await plan.apply();
    const outcome = feedback.length > 0 ? await room.markOutcomeLearned(a.task_id) : r.outcome;
    await ctx.memory.learning.afterTask(a.task_id, agent, ctx.sampler);
    const now = room.now();
    // One feedback per receipt of the task: a long task's list is cut like its released claims, with the count.
    const learned = boundedList(feedback.map(feedbackJson), LIST_MAX_CHARS / 4);
    return { success: true, task: taskJson(r.task, false), ...releasedJson(r.released.map((c) => claimJson(c, now))), outcome: outcomeJson(outcome), feedback: learned.items, feedback_total: learned.total };
  },
});
