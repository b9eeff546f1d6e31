import { z } from 'zod';
import { LIMITS } from '../../coordination/coordination-validate';
import { ADDITIVE_WRITE, agentArg, defineTool, taskJson } from './common';

const input = z.strictObject({
  title: z.string().trim().min(1).max(LIMITS.title).describe('What the task is, in one line.'),
  description: z.string().max(LIMITS.description).optional().describe('Details, acceptance criteria (Markdown).'),
  tags: z.array(z.string().trim().min(1).max(LIMITS.tag)).max(LIMITS.tags).optional().describe('Tags to find the task by (lithos_task_list tags filter).'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Any extra JSON fields.'),
  agent: agentArg,
});

export const lithosTaskCreate = defineTool({
  name: 'lithos_task_create',
  title: 'Create a task',
  description: [
    'Create a shared task that several agents can work on. Split the work into aspects and take one with lithos_task_claim,',
    'report what you learn with lithos_finding_post, and finish with lithos_task_complete. Returns {task_id, task}.',
  ].join(' '),
  input,
  annotations: ADDITIVE_WRITE,
  async handler(a: z.infer<typeof input>, ctx) {
    const agent = await ctx.memory.tasks.acting(a.agent, 'lithos_task_create');
    const task = await ctx.memory.tasks.createTask({ created_by: agent, title: a.title, description: a.description, tags: a.tags, metadata: a.metadata });
    return { task_id: task.id, task: taskJson(task, false) };
  },
});
