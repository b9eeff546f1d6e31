/**
 * Write proposals as a session's caller may use them: an agent follows its own proposals (to learn whether
 * one was accepted or rejected, and why); the person sees all and alone decides on them.
 */
import { LithosError } from '../errors';
import type { Proposal, ProposalStatus } from '../governance/proposals';
import type { Services } from './services';
import type { SessionScope } from './session-scope';

export class ProposalsRoom {
  constructor(
    private readonly services: Services,
    private readonly who: SessionScope,
  ) {}

  /** Oldest first. `agent` filters for the person only: an agent always gets just its own. */
  list(q: { status?: ProposalStatus; agent?: string } = {}): Promise<{ proposals: Proposal[]; damaged: number }> {
    const agent = this.who.isPerson ? q.agent : (this.who.caller.agent_id ?? '');
    return this.services.governance.proposals.list({ agent, status: q.status });
  }

  /** Makes the proposed write, as the agent that proposed it; the person only. */
  async accept(id: string, tool: string): Promise<Proposal> {
    this.requirePerson(tool);
    return this.services.governance.proposals.accept(id, this.who.auditActor);
  }

  /** Declines the proposed write, with the reason the agent will read; the person only. */
  async reject(id: string, reason: string | null, tool: string): Promise<Proposal> {
    this.requirePerson(tool);
    return this.services.governance.proposals.reject(id, this.who.auditActor, reason);
  }

  /** Agents propose, a person confirms: an agent deciding gets forbidden, whoever proposed. */
  private requirePerson(tool: string): void {
    if (!this.who.isPerson) {
      throw new LithosError('forbidden', `${tool} is for the person: agents propose, a person confirms. Use lithos_proposal_list to follow your proposals.`, { tool });
    }
  }
}
