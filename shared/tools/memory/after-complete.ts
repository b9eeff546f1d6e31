import type { ToolContext } from '../types';

/**
 * Consolidation at lithos_task_complete: the task's working memory is consolidated once the task (and its
 * feedback) is recorded. The task is complete whatever happens here, so a failure is logged, not thrown.
 */
export async function consolidateCompletedTask(ctx: ToolContext, taskId: string, agent: string): Promise<void> {
  try {
    await ctx.engine.consolidator.run({ task: taskId, actor: agent === 'human' ? { kind: 'human', id: null } : { kind: 'agent', id: agent } });
  } catch (err) {
    ctx.engine.logger.warn('consolidation after task completion failed', { task_id: taskId, error: String(err) });
  }
}
