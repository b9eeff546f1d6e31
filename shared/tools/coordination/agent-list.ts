import { z } from 'zod';
import { LIMITS } from '../../coordination/coordination-validate';
import { agentJson, defineTool, isoArg, READ_ONLY, touchCaller } from './common';

const input = z.strictObject({
  type: z.string().trim().min(1).max(LIMITS.name).optional().describe('Only agents of this type.'),
  active_since: isoArg('Only agents seen at or after this time (ISO 8601).'),
});

export const lithosAgentList = defineTool({
  name: 'lithos_agent_list',
  title: 'List agents',
  description: 'Every agent known to this vault, most recently seen first, optionally only one type or only those active since a time. Returns {agents}.',
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    await touchCaller(ctx);
    const agents = ctx.engine.coordination.agents({ type: a.type, activeSince: a.active_since === undefined ? undefined : Date.parse(a.active_since) });
    return { agents: agents.map(agentJson) };
  },
});
