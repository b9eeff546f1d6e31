import { LithosError } from '../../errors';
import type { Proposal } from '../../governance/proposals';
import type { ToolContext } from '../types';

/** Only the person decides on proposals; an agent gets forbidden, whoever proposed. */
export function requireHuman(ctx: ToolContext, tool: string): void {
  if (ctx.caller.kind !== 'human') {
    throw new LithosError('forbidden', `${tool} is for the person: agents propose, a person confirms. Use lithos_proposal_list to follow your proposals.`, { tool });
  }
}

/** A proposal as tools return it: what it would write, and what became of it. */
export function proposalJson(p: Proposal): Record<string, unknown> {
  return {
    proposal_id: p.proposal_id,
    status: p.status,
    agent: p.agent,
    created_at: p.created_at,
    path: p.path,
    namespace: p.namespace,
    title: p.title,
    mode: p.request.mode,
    expected_version: p.request.expectedVersion ?? null,
    content: p.request.content ?? null,
    fields: p.request.fields,
    decided_at: p.decided_at,
    decided_by: p.decided_by,
    reason: p.reason,
    result: p.result,
  };
}
