import { z } from 'zod';
import { LIMITS } from '../../coordination/coordination-validate';
import { listShape, pageItems } from '../text-budget';
import { agentJson, defineTool, isoArg, READ_ONLY } from './common';

const input = z.strictObject({
  type: z.string().trim().min(1).max(LIMITS.name).optional().describe('Only agents of this type.'),
  active_since: isoArg('Only agents seen at or after this time (ISO 8601).'),
  ...listShape(100, 1000),
});

export const lithosAgentList = defineTool({
  name: 'lithos_agent_list',
  title: 'List agents',
  description: 'Every agent known to this vault, most recently seen first, optionally only one type or only those active since a time. Returns {agents}.',
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    await ctx.memory.tasks.touch();
    const agents = ctx.memory.tasks.agents({ type: a.type, activeSince: a.active_since === undefined ? undefined : Date.parse(a.active_since) });
    const { page, total, next_cursor } = pageItems(agents.map(agentJson), a, 'lithos_agent_list');
    return { agents: page, total, next_cursor };
  },
});
