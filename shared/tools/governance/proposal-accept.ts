import { z } from 'zod';
import { defineTool } from '../knowledge/common';
import { proposalJson } from './common';

const input = z.strictObject({
  proposal_id: z.string().trim().min(1).describe('The proposal to accept (lithos_proposal_list).'),
});

export const lithosProposalAccept = defineTool({
  name: 'lithos_proposal_accept',
  title: 'Accept a write proposal',
  description: [
    'For the person: make the write (or delete) an agent proposed, with that agent recorded as author (new note) or contributor.',
    'Refused with a conflict when the note changed since the agent saw it (the proposal stays pending: reject it, or let the agent propose again). Agents get forbidden.',
  ].join(' '),
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  audience: 'person',
  async handler(a: z.infer<typeof input>, ctx) {
    return { proposal: proposalJson(await ctx.memory.proposals.accept(a.proposal_id, 'lithos_proposal_accept')) };
  },
});
