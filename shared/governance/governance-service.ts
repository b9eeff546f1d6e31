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
import { EventBus, publicEventsOf } from './public-events';
import { WebhookSender, type HttpPost } from './webhooks';
import type { Clock, Logger, Timers } from '../ports';

export interface GovernanceDeps {
  audit: AuditLog;
  policy: PolicyStore;
  agentKeys: AgentKeys;
  proposals: ProposalStore;
  /** The tasks an agent is on (created, claimed or reported on). */
  tasks: Pick<CoordinationStore, 'tasksOf'>;
  /** The host's HTTP POST for webhooks (null: the host makes no requests; listed webhooks are reported). */
  post: HttpPost | null;
  clock: Clock;
  timers: Timers;
  logger: Logger;
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
  /** The public event stream other tools subscribe to (public-events.ts), derived from the audit trail. */
  readonly events: EventBus;
  /** Delivers the same events to the policy's webhooks (webhooks.ts). */
  readonly webhooks: WebhookSender;
  private readonly tasks: GovernanceDeps['tasks'];
  private readonly unfollow: () => void;

  constructor(d: GovernanceDeps) {
    this.audit = d.audit;
    this.policy = d.policy;
    this.agentKeys = d.agentKeys;
    this.proposals = d.proposals;
    this.tasks = d.tasks;
    this.events = new EventBus((err) => d.logger.warn(`a Lithos event listener failed: ${String(err)}`));
    this.webhooks = new WebhookSender({ post: d.post, timers: d.timers, clock: d.clock, audit: d.audit, logger: d.logger, endpoints: () => this.policy.get().webhooks ?? [] });
    this.unfollow = d.audit.onAppend((entry) => {
      for (const event of publicEventsOf(entry)) {
        this.events.emit(event);
        this.webhooks.send(event);
      }
    });
  }

  /**
   * Stops the event stream (the engine's close). Deliveries under way, and the first attempt of each queued
   * event, finish first (a short CLI job's events still go out); events waiting to be retried are dropped, logged.
   */
  async close(): Promise<void> {
    this.unfollow();
    await this.webhooks.settled();
    this.webhooks.close();
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
