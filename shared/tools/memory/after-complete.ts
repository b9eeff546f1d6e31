import type { ToolContext } from '../types';

/** Consolidation at lithos_task_complete (session/learning-room.ts `afterTask`): logged, never thrown. */
export function consolidateCompletedTask(ctx: ToolContext, taskId: string, agent: string): Promise<void> {
  return ctx.memory.learning.afterTask(taskId, agent);
}
