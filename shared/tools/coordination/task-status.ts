import { z } from 'zod';
import { LithosError } from '../../errors';
import { LIST_MAX_CHARS } from '../text-budget';
import { boundedList, claimJson, defineTool, findingJson, outcomeJson, READ_ONLY, taskIdArg, taskJson } from './common';

const input = z.strictObject({ task_id: taskIdArg });

export const lithosTaskStatus = defineTool({
  name: 'lithos_task_status',
  title: 'Task status',
  description: [
    'Everything about one task: its fields and status, the live claims (who holds which aspect and the seconds each has left;',
    'expired claims are not shown, those aspects are free), the findings posted so far, and the completion outcome if completed.',
    'Check it before claiming, to pick an aspect nobody holds. Returns {task, claims, findings, outcome}.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const room = ctx.memory.tasks;
    await room.touch();
    const task = room.task(a.task_id);
    if (!task) throw new LithosError('not_found', `No task ${a.task_id}. Use lithos_task_list to find tasks.`, { task_id: a.task_id });
    const now = room.now();
    const outcome = room.outcome(task.id);
    // The description (at most 20,000 characters) comes whole; claims and findings share what is left of the
    // budget, the first of each with their totals (lithos_finding_list pages the findings).
    const left = Math.max(4_000, LIST_MAX_CHARS - (task.description?.length ?? 0)) / 2;
    const claims = boundedList(room.liveClaims(task.id).map((c) => claimJson(c, now)), left);
    const findings = boundedList(room.findings(task.id).map(findingJson), left);
    return {
      task: taskJson(task),
      claims: claims.items,
      findings: findings.items,
      claims_total: claims.total,
      findings_total: findings.total,
      outcome: outcome ? outcomeJson(outcome) : null,
    };
  },
});
