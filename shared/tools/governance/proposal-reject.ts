import { z } from 'zod';
import { defineTool } from '../knowledge/common';
import { proposalJson } from './common';

const input = z.strictObject({
  proposal_id: z.string().trim().min(1).describe('The proposal to reject (lithos_proposal_list).'),
  reason: z.string().trim().min(1).max(2000).optional().describe('Why, for the agent that proposed it.'),
});

export const lithosProposalReject = defineTool({
  name: 'lithos_proposal_reject',
  title: 'Reject a write proposal',
  description: 'For the person: decline a write an agent proposed; the note stays as it is and the agent sees the reason in lithos_proposal_list. Agents get forbidden.',
  input,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  audience: 'person',
  async handler(a: z.infer<typeof input>, ctx) {
    return { proposal: proposalJson(await ctx.memory.proposals.reject(a.proposal_id, a.reason ?? null, 'lithos_proposal_reject')) };
  },
});
