import { z } from 'zod';
import { PROPOSAL_STATUSES } from '../../governance/proposals';
import { READ_ONLY, defineTool } from '../knowledge/common';
import { proposalJson } from './common';
import { listShape, pageItems } from '../text-budget';

const input = z.strictObject({
  status: z.enum(PROPOSAL_STATUSES).optional().describe('Only proposals in this state: pending, accepted or rejected.'),
  agent: z.string().trim().min(1).optional().describe('Only proposals by this agent (the person only; an agent always sees just its own).'),
  ...listShape(50, 500),
});

export const lithosProposalList = defineTool({
  name: 'lithos_proposal_list',
  title: 'List write proposals',
  description: [
    'Changes waiting for a person: an agent\'s write or delete of the person\'s note, or a write in a namespace the vault policy reserves for confirmation, is kept as a proposal (op, why) instead.',
    'Agents see their own proposals (to learn whether one was accepted or rejected, and why); the person sees all. Oldest first.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const { proposals, damaged } = await ctx.memory.proposals.list({ agent: a.agent, status: a.status });
    const { page, total, next_cursor } = pageItems(proposals.map(proposalJson), a, 'lithos_proposal_list');
    return { proposals: page, damaged, total, next_cursor };
  },
});
