import { z } from 'zod';
import { LithosError } from '../../errors';
import { claimJson, defineTool, findingJson, nowOf, outcomeJson, READ_ONLY, taskIdArg, taskJson, touchCaller } from './common';
import { allowFor } from '../knowledge/common';

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
    await touchCaller(ctx);
    const store = ctx.engine.coordination;
    const task = store.task(a.task_id);
    if (!task) throw new LithosError('not_found', `No task ${a.task_id}. Use lithos_task_list to find tasks.`, { task_id: a.task_id });
    const now = nowOf(ctx);
    const outcome = store.outcome(task.id);
    return {
      task: taskJson(task),
      claims: store.liveClaims(task.id).map((c) => claimJson(c, now)),
      findings: store.findings(task.id).map((f) => findingJson(f, allowFor(ctx))),
      outcome: outcome ? outcomeJson(outcome, allowFor(ctx)) : null,
    };
  },
});
