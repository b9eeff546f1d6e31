import { z } from 'zod';
import { LithosError } from '../../errors';
import { LIMITS } from '../../coordination/coordination-validate';
import { agentJson, boundedList, claimJson, defineTool, READ_ONLY } from './common';

const input = z.strictObject({
  id: z.string().trim().min(1).max(LIMITS.agentId).optional().describe('The agent to describe; default: yourself.'),
});

export const lithosAgentInfo = defineTool({
  name: 'lithos_agent_info',
  title: 'Describe an agent',
  description: [
    'One agent: id, name, type, when it registered and was last seen, its metadata, and the task aspects it holds right now',
    '(live claims with the seconds each has left). Use it to find out who is behind a claim that blocks you.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const tasks = ctx.memory.tasks;
    await tasks.touch();
    const id = a.id ?? ctx.caller.agent_id ?? (ctx.caller.kind === 'human' ? 'human' : '');
    const agent = id ? tasks.agent(id) : null;
    if (!agent) throw new LithosError('not_found', `No agent "${id}". Use lithos_agent_list to see the known agents.`, { id });
    const now = tasks.now();
    const claims = boundedList(tasks.claimsHeldBy(agent.id).map((c) => claimJson(c, now)));
    return { agent: agentJson(agent), claims: claims.items, claims_total: claims.total };
  },
});
