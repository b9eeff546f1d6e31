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
import { EdgesRoom } from './edges-room';
import { IndexRoom } from './index-room';
import { LearningRoom } from './learning-room';
import { NotesRoom } from './notes-room';
import { ReceiptsRoom } from './receipts-room';
import { ConflictsRoom } from './conflicts-room';
import { ProposalsRoom } from './proposals-room';
import { SessionScope } from './session-scope';
import { TasksRoom } from './tasks-room';
import type { SessionEngine } from './session-engine';

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

  constructor(
    private readonly engine: SessionEngine,
    caller: SessionCaller,
  ) {
    this.scope = new SessionScope(engine, caller);
    this.notes = new NotesRoom(engine, this.scope);
    this.receipts = new ReceiptsRoom(engine, this.scope, this.notes);
    this.learning = new LearningRoom(engine, this.scope, this.notes, this.receipts);
    this.conflicts = new ConflictsRoom(engine, this.scope, this.notes);
    this.proposals = new ProposalsRoom(engine, this.scope);
    this.tasks = new TasksRoom(engine, this.scope, this.notes);
    this.edges = new EdgesRoom(engine, this.scope, this.notes);
    this.index = new IndexRoom(engine);
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
    const rules = this.engine.policy.get().agent_tools;
    const why = toolRefusal(def, rules);
    if (why) throw new LithosError('forbidden', why, { tool: def.name, read_only: rules.read_only });
  }

  /** Parallel Terraced Scan over what the viewer may see on this task (its task's notes included). */
  retrieve(ctx: QueryContext, opts: Omit<RetrieveOptions, 'viewer'> = {}): Promise<RetrievalResult> {
    return this.engine.retrieve(ctx, { ...opts, viewer: this.scope.viewerOn(ctx.task_id ?? null) });
  }
}

/**
 * Opens a session for a caller: checks the agent's key (once per session, here for every front door), and
 * reads a hand edit of .lithos/policy.json (at most every few seconds) so the session judges by the policy
 * in force.
 */
export async function openSession(engine: SessionEngine, caller: SessionCaller): Promise<MemorySession> {
  const verified = caller.kind === 'human' || (await engine.agentKeys.verify(caller.agent_id, caller.key));
  await engine.policy.refresh();
  return new MemorySession(engine, { kind: caller.kind, agent_id: caller.agent_id, ...(verified ? {} : { verified: false }) });
}

/** What a front door opens sessions from: the engine in a composition root, or a host that opens the vault lazily. */
export interface MemoryGateway {
  as(caller: SessionCaller): Promise<MemorySession>;
}
