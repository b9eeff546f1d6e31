import { z } from 'zod';
import { READ_ONLY, defineTool } from '../knowledge/common';
import { listShape, pageItems } from '../text-budget';

const ref = (what: string) => z.string().trim().min(1).max(200).optional().describe(what);

const input = z.strictObject({
  agent: ref('Whose working memory: an agent id. Default: yours, when task is not given either.'),
  task: ref('A task id: the working memory everyone on that task shares.'),
  ...listShape(100, 1000),
});

export const lithosWorkingMemory = defineTool({
  name: 'lithos_working_memory',
  title: 'Working memory',
  description: [
    'The notes retrieved and used lately: for an agent (its retrievals in the last 24 h), for a task (every retrieval made for it, shared by all agents on it), or both.',
    'Each item says how often it was retrieved and used (cited in the task outcome or found used by lithos_feedback; a retrieval nobody gave feedback on counts no use). Read-only.',
    'Use it to pick up where you or another agent left off on a task. Notes you may not see are left out.',
    'Returns {agent, task, receipts, items:[{id, path, title, note_type, retrieved, used, last_at}]}, most used first.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const wm = await ctx.memory.learning.workingMemory({ agent: a.agent, task: a.task });
    const items = wm.items.map(({ note: n, ...it }) => ({ id: it.id, path: n.path, title: n.cached.meta.title, note_type: n.cached.meta.note_type, retrieved: it.retrieved, used: it.used, last_at: it.last_at }));
    // Only retrievals that returned something the caller may see are counted: the others are not its business.
    const { page, total, next_cursor } = pageItems(items, a, 'lithos_working_memory');
    return { agent: wm.agent, task: wm.task, receipts: new Set(wm.items.flatMap((it) => it.receipts)).size, items: page, total, next_cursor };
  },
});
