/**
 * Who may do and see what, and the record of what was done: the audit trail, the policy, agent keys and
 * proposals (the stores under `.lithos/`), and the viewer the scope gate judges for a caller.
 */
import type { CoordinationStore } from '../coordination/coordination-store';
import type { AgentKeys } from './agent-keys';
import type { AuditLog } from './audit';
import { readersMaySee } from './audience';
import { gatedNote, type Viewer } from './gate';
import type { PolicyStore } from './policy';
import type { ProposalStore } from './proposals';
import { resolveViewer } from './viewer';

export interface GovernanceDeps {
  audit: AuditLog;
  policy: PolicyStore;
  agentKeys: AgentKeys;
  proposals: ProposalStore;
  /** The tasks an agent is on (created, claimed or reported on). */
  tasks: Pick<CoordinationStore, 'tasksOf'>;
}

/** A note as the audience rule reads it (a live note fits). */
type AudienceNote = Parameters<typeof gatedNote>[0];

export class GovernanceService {
  /** `.lithos/audit.jsonl`: the hash-chained trail of writes and learning actions (audit.ts). */
  readonly audit: AuditLog;
  /** `.lithos/policy.json`: allowlists, shared patterns, proposal namespaces (policy.ts). */
  readonly policy: PolicyStore;
  /** `.lithos/agent-keys.json`: per-agent keys a bridge presents to act as its agent (agent-keys.ts). */
  readonly agentKeys: AgentKeys;
  /** `.lithos/proposals/`: agent writes waiting for a person (proposals.ts). */
  readonly proposals: ProposalStore;
  private readonly tasks: GovernanceDeps['tasks'];

  constructor(d: GovernanceDeps) {
    this.audit = d.audit;
    this.policy = d.policy;
    this.agentKeys = d.agentKeys;
    this.proposals = d.proposals;
    this.tasks = d.tasks;
  }

  /**
   * The viewer the scope gate judges for a caller: the person as is; an agent with its policy allowlist,
   * the shared patterns and the tasks it is on (viewer.ts).
   */
  viewerFor(caller: { kind: 'human' | 'agent'; agent_id: string | null; verified?: boolean }, taskId: string | null = null): Viewer {
    return resolveViewer(caller, taskId, { policy: this.policy.get(), tasksOf: (id) => this.tasks.tasksOf(id) });
  }

  /**
   * Whether text the engine writes into `reader` (a callout, a concept's member list, a summary) may name or
   * quote `target`: every agent that may read `reader` may read `target` too (audience.ts).
   */
  readersMaySee(reader: AudienceNote, target: AudienceNote): boolean {
    const ctx = { policy: this.policy.get(), viewerOf: (id: string) => this.viewerFor({ kind: 'agent', agent_id: id }), keysInUse: this.keysInUse() };
    return readersMaySee(ctx, gatedNote(reader), gatedNote(target));
  }

  /** Whether agent keys are issued: then an agent may be unverified and read `shared` notes only (audience.ts). */
  keysInUse(): boolean {
    return this.agentKeys.inUse();
  }
}
