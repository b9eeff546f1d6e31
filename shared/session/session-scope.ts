/**
 * Who a session acts for, as every room of it judges: the caller, the viewer the scope gate sees (policy
 * allowlist, shared patterns, hidden folders and tasks resolved once, so one call judges every note by the
 * same policy), and the identity recorded as author and in the audit trail.
 */
import { LithosError } from '../errors';
import type { AuditActor } from '../governance/audit';
import type { Viewer } from '../governance/gate';
import type { SessionCaller } from './caller';
import type { GovernanceService } from '../governance/governance-service';

export class SessionScope {
  private resolved: Viewer | null = null;

  constructor(
    private readonly governance: Pick<GovernanceService, 'viewerFor'>,
    readonly caller: SessionCaller,
  ) {}

  get isPerson(): boolean {
    return this.caller.kind === 'human';
  }

  get viewer(): Viewer {
    this.resolved ??= this.governance.viewerFor(this.caller);
    return this.resolved;
  }

  /** The same caller judged on a task (retrieval's task_id, a finding's task): its notes become visible. */
  viewerOn(taskId: string | null): Viewer {
    return taskId === null ? this.viewer : this.governance.viewerFor(this.caller, taskId);
  }

  /** Who writes: the agent id, or `human` for the person. Writes need an identity to record as author. */
  actor(tool: string): string {
    if (this.caller.kind === 'human') return 'human';
    if (!this.caller.agent_id) {
      throw new LithosError('invalid_argument', `${tool} needs to know which agent is writing: pass agent_id, or start the bridge with --agent <id> (or LITHOS_AGENT_ID).`, { tool });
    }
    return this.caller.agent_id;
  }

  /** Who acted, for the audit trail. */
  get auditActor(): AuditActor {
    return this.caller.kind === 'human' ? { kind: 'human', id: null } : { kind: 'agent', id: this.caller.agent_id };
  }

  get provenance(): 'human' | 'agent' {
    return this.caller.kind === 'human' ? 'human' : 'agent';
  }
}
