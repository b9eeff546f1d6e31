/**
 * Write proposals as a session's caller may use them: an agent follows its own proposals (to learn whether
 * one was accepted or rejected, and why); the person sees all and alone decides on them.
 */
import { LithosError } from '../errors';
import type { Proposal, ProposalStatus } from '../governance/proposals';
import type { NoteMeta } from '../model/types';
import { actorFor } from '../vault/audited-writes';
import { buryAfterWrite } from './graveyard-moves';
import { auditStateChange } from './ledger-kind-writes';
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

  /**
   * Makes the proposed write, as the agent that proposed it; the person only. A write that moves a ledger entry
   * to another state is then audited `ledger.state` and, when it retires the entry, buried (graveyard-moves.ts),
   * exactly as the agent's own write would have been: the state change is the agent's, the proposal names who accepted.
   */
  async accept(id: string, tool: string): Promise<Proposal> {
    this.requirePerson(tool);
    const proposals = this.services.governance.proposals;
    const proposed = await proposals.get(id);
    const before = proposed.op === 'delete' ? null : await this.metaBefore(proposed.request.path);
    const done = await proposals.accept(id, this.who.auditActor);
    const result = done.result;
    if (done.op === 'delete' || !result || !('created' in result)) return done;
    const writer = actorFor(done.agent);
    await auditStateChange(this.services, writer, before, result.path, { proposal_id: id, accepted_by: this.who.auditActor });
    await buryAfterWrite(this.services, writer, before, result.path, []);
    return done;
  }

  /** The note's metadata as the accepted write will find it (the file, not a lagging index); null for a new note. */
  private async metaBefore(path: string): Promise<NoteMeta | null> {
    await this.services.notes.refresh(path);
    const n = this.services.notes.noteAtPath(path);
    return n && n.path === path ? n.cached.meta : null;
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
