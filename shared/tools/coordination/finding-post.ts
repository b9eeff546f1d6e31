import { z } from 'zod';
import { LithosError } from '../../errors';
import { LIMITS } from '../../coordination/coordination-validate';
import { ADDITIVE_WRITE, agentArg, defineTool, findingJson, taskIdArg } from './common';

const input = z.strictObject({
  task_id: taskIdArg,
  summary: z.string().max(LIMITS.summary).describe('What you found, briefly (Markdown allowed).'),
  knowledge_id: z
    .string()
    .trim()
    .min(1)
    .max(LIMITS.nodeRef)
    .optional()
    .describe('A note holding the details (its id, path or title), e.g. one you just wrote with lithos_write. It must exist.'),
  agent: agentArg,
});

export const lithosFindingPost = defineTool({
  name: 'lithos_finding_post',
  title: 'Post a finding',
  description: [
    'Share a finding on a task with the other agents working on it: a short summary, optionally linked to a note with the details.',
    'Findings can be posted to open and completed tasks. Returns {finding_id, finding}.',
  ].join(' '),
  input,
  annotations: ADDITIVE_WRITE,
  async handler(a: z.infer<typeof input>, ctx) {
    const tasks = ctx.memory.tasks;
    const agent = await tasks.acting(a.agent, 'lithos_finding_post');
    let knowledgeId: string | null = null;
    if (a.knowledge_id !== undefined) {
      const note = tasks.visibleNote(a.knowledge_id, agent, a.task_id);
      if (!note) {
        throw new LithosError('not_found', `knowledge_id: no note "${a.knowledge_id}". Link a note by the id lithos_write or lithos_search returned.`, {
          field: 'knowledge_id',
          knowledge_id: a.knowledge_id,
        });
      }
      knowledgeId = note.nodeId;
    }
    const finding = await tasks.postFinding({ task_id: a.task_id, agent, summary: a.summary, knowledge_id: knowledgeId });
    return { finding_id: finding.id, finding: findingJson(finding) };
  },
});
