import { z } from 'zod';
import { LithosError } from '../../errors';
import { LIMITS } from '../../coordination/coordination-validate';
import { agentJson, defineTool, IDEMPOTENT_WRITE } from './common';

const input = z.strictObject({
  id: z.string().trim().min(1).max(LIMITS.agentId).optional().describe('The agent id to register; default: your own (the bridge identity).'),
  name: z.string().trim().min(1).max(LIMITS.name).optional().describe('Human-friendly display name.'),
  type: z.string().trim().min(1).max(LIMITS.name).optional().describe('What kind of agent, e.g. "claude-code", "cursor", "custom".'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Anything else worth knowing (capabilities, version); replaces earlier metadata.'),
});

export const lithosAgentRegister = defineTool({
  name: 'lithos_agent_register',
  title: 'Register an agent',
  description: [
    'Register an agent, or update its name, type or metadata. Optional: every agent is registered automatically on its first call;',
    'use this to describe yourself so other agents and the person know who holds which task aspect.',
    'Returns {success, created, agent}; created is false when the agent was already known.',
  ].join(' '),
  input,
  annotations: IDEMPOTENT_WRITE,
  async handler(a: z.infer<typeof input>, ctx) {
    const id = a.id ?? (ctx.caller.kind === 'human' ? 'human' : ctx.caller.agent_id);
    if (!id) throw new LithosError('invalid_argument', 'lithos_agent_register needs an id: pass id, or start the bridge with --agent <id> (or LITHOS_AGENT_ID).', { tool: 'lithos_agent_register' });
    const r = await ctx.memory.tasks.registerAgent({ id, name: a.name, type: a.type, metadata: a.metadata });
    return { success: true, created: r.created, agent: agentJson(r.agent) };
  },
});
