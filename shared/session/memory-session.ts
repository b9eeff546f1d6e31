/**
 * A memory session: the memory as one viewer may use it. Every front door (each MCP tool call, each CLI
 * command, each panel and command of the plugin) holds a session, never the engine; every read and write
 * method on it applies the viewer's scopes, namespace allowlist, hidden folders, read-only policy, tool
 * policy and write policy. Handlers therefore never judge access themselves. The unscoped engine is reached
 * only by the composition roots and the engine's own internal jobs (decay, consolidation, eval).
 */
import { LithosError } from '../errors';
import { AGENT_KEY_ENV } from '../governance/agent-keys';
import { toolRefusal } from '../governance/tool-access';
import type { QueryContext, RetrievalResult, RetrieveOptions } from '../retrieval/types';
import type { SessionCaller } from './caller';
import { BriefingRoom } from './briefing-room';
import { TimelineRoom } from './timeline-room';
import { DriftRoom } from './drift-room';
import { DevicesRoom } from './devices-room';
import { EdgesRoom } from './edges-room';
import { EventsRoom } from './events-room';
import { IndexRoom } from './index-room';
import { LearningRoom } from './learning-room';
import { NotesRoom } from './notes-room';
import { ReceiptsRoom } from './receipts-room';
import { ConflictsRoom } from './conflicts-room';
import { ProposalsRoom } from './proposals-room';
import { SessionScope } from './session-scope';
import { TasksRoom } from './tasks-room';
import { TargetsRoom } from './targets-room';
import type { SessionSources } from './session-sources';
import type { Services } from './services';

/** What the session needs to know of a tool to let the call through (tools/types.ts ToolDef). */
export interface ToolFacts {
  name: string;
  annotations: { readOnlyHint: boolean };
  audience?: 'person';
}

export class MemorySession {
  readonly scope: SessionScope;
  readonly notes: NotesRoom;
  readonly receipts: ReceiptsRoom;
  readonly learning: LearningRoom;
  readonly conflicts: ConflictsRoom;
  readonly proposals: ProposalsRoom;
  readonly tasks: TasksRoom;
  readonly edges: EdgesRoom;
  readonly index: IndexRoom;
  readonly events: EventsRoom;
  readonly targets: TargetsRoom;
  readonly briefing: BriefingRoom;
  readonly timeline: TimelineRoom;
  readonly drift: DriftRoom;
  readonly devices: DevicesRoom;

  private readonly services: Services;

  constructor(sources: SessionSources, caller: SessionCaller) {
    const s = (this.services = sources.services);
    this.scope = new SessionScope(s.governance, caller);
    this.notes = new NotesRoom(s, this.scope);
    this.receipts = new ReceiptsRoom(s, this.scope, this.notes);
    this.learning = new LearningRoom(s, this.scope, this.notes, this.receipts, sources.logger);
    this.conflicts = new ConflictsRoom(s, this.scope, this.notes);
    this.proposals = new ProposalsRoom(s, this.scope);
    this.tasks = new TasksRoom(s, this.scope, this.notes);
    this.edges = new EdgesRoom(s, this.scope, this.notes);
    this.index = new IndexRoom(s.search, () => sources.pendingEvents());
    this.events = new EventsRoom(s, this.scope, this.notes);
    this.targets = new TargetsRoom(s, this.scope, this.notes);
    this.drift = new DriftRoom(s, this.notes, this.conflicts);
    this.briefing = new BriefingRoom(s, this.notes, this.conflicts, this.drift);
    this.timeline = new TimelineRoom(s, this.notes);
    this.devices = new DevicesRoom(s);
  }

  get caller(): SessionCaller {
    return this.scope.caller;
  }

  /**
   * Refuses a tool call this caller may not make: the person's own tools for agents, any change for an
   * unverified agent, and what the vault's agent_tools policy turns off or makes read-only.
   */
  checkTool(def: ToolFacts): void {
    const c = this.caller;
    if (c.kind === 'human') return;
    if (c.verified === false && !def.annotations.readOnlyHint) {
      throw new LithosError('forbidden', `"${def.name}" changes the vault, and this session is not verified: keys are issued in this vault, and the bridge did not present ${c.agent_id === null ? 'one' : `agent "${c.agent_id}"'s key`} (${AGENT_KEY_ENV}). An unverified session reads shared notes only.`, { tool: def.name, verified: false });
    }
    const rules = this.services.governance.policy.get().agent_tools;
    const why = toolRefusal(def, rules);
    if (why) throw new LithosError('forbidden', why, { tool: def.name, read_only: rules.read_only });
  }

  /** Parallel Terraced Scan over what the viewer may see on this task (its task's notes included). */
  retrieve(ctx: QueryContext, opts: Omit<RetrieveOptions, 'viewer'> = {}): Promise<RetrievalResult> {
    return this.services.retrieval.retrieve(ctx, { ...opts, viewer: this.scope.viewerOn(ctx.task_id ?? null) });
  }
}

/**
 * Opens a session for a caller: checks the agent's key (once per session, here for every front door), and
 * reads a hand edit of .lithos/policy.json (at most every few seconds) so the session judges by the policy
 * in force.
 */
export async function openSession(sources: SessionSources, caller: SessionCaller): Promise<MemorySession> {
  const { governance } = sources.services;
  const verified = caller.kind === 'human' || (await governance.agentKeys.verify(caller.agent_id, caller.key));
  await governance.policy.refresh();
  return new MemorySession(sources, { kind: caller.kind, agent_id: caller.agent_id, ...(verified ? {} : { verified: false }) });
}

/** What a front door opens sessions from: the engine in a composition root, or a host that opens the vault lazily. */
export interface MemoryGateway {
  as(caller: SessionCaller): Promise<MemorySession>;
}
