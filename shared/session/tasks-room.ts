/**
 * Agents, shared tasks, claims and findings (the coordination store) as a session uses them. Tasks are open
 * to every agent; what the room judges is the notes they name: a finding or outcome naming a note the viewer
 * may not see names none, and a note cited on a task must be one the acting agent may see on that task.
 * The acting agent is the session's own; a call's `agent` names it only where the bridge named none (or for the
 * person, who may act for any agent). It is registered on first use.
 */
import { LithosError } from '../errors';
import type { CoordinationStore } from '../coordination/coordination-store';
import type { AgentRow, ClaimRow, FindingRow, TaskOutcomeRow, TaskRow } from '../coordination/coordination-types';
import type { AuditAction, AuditActor } from '../governance/audit';
import { canSee, gatedNote } from '../governance/gate';
import type { Receipt } from '../retrieval/types';
import type { LiveNote } from '../vault/note-indexer';
import type { NotesRoom } from './notes-room';
import type { Services } from './services';
import type { SessionScope } from './session-scope';

type Store = CoordinationStore;

export class TasksRoom {
  constructor(
    private readonly services: Services,
    private readonly who: SessionScope,
    private readonly notes: NotesRoom,
  ) {}

  private get store(): Store {
    return this.services.coordination;
  }

  /** The coordination clock: claims are live while now < expires_at. */
  now(): number {
    return this.store.now();
  }

  // ── who acts ────────────────────────────────────────────────────────────

  /**
   * The agent a call acts for: `agent` when given, else the session's agent; the person acts as `human`.
   * The agent is registered on its first call and its last_seen_at refreshed.
   */
  async acting(agent: string | undefined, tool: string): Promise<string> {
    const own = this.who.isPerson ? null : this.who.caller.agent_id;
    // An agent whose bridge named it acts as itself only: naming another agent would borrow that agent's tasks.
    if (own !== null && agent !== undefined && agent !== own) {
      throw new LithosError('forbidden', `${tool}: this session acts as agent "${own}"; it cannot act as "${agent}". Leave agent out.`, { tool, field: 'agent' });
    }
    const id = agent ?? (this.who.isPerson ? 'human' : own);
    if (!id) {
      throw new LithosError('invalid_argument', `${tool} needs to know which agent is acting: pass agent, or start the bridge with --agent <id> (or LITHOS_AGENT_ID).`, { tool });
    }
    await this.ensureAgent(id);
    return id;
  }

  /** Registers an agent on first use (audited like lithos_agent_register); a later call only refreshes last_seen_at (telemetry, not audited). */
  private async ensureAgent(id: string): Promise<void> {
    const known = this.store.agent(id) !== null;
    const row = await this.store.ensureAgent(id);
    if (!known) await this.audit('agent.register', this.who.auditActor, row.id, { created: true, on_first_use: true });
  }

  /** Registers the session's agent, if it has one, for calls that name no acting agent. */
  async touch(): Promise<void> {
    const c = this.who.caller;
    if (c.kind === 'agent' && c.agent_id) await this.ensureAgent(c.agent_id);
  }

  /** Who acted, for the audit trail: the person, or the acting agent. */
  private auditActor(agent: string): AuditActor {
    return this.who.isPerson ? { kind: 'human', id: null } : { kind: 'agent', id: agent };
  }

  // ── agents ──────────────────────────────────────────────────────────────

  agent(id: string): AgentRow | null {
    return this.store.agent(id);
  }

  agents(q: Parameters<Store['agents']>[0] = {}): AgentRow[] {
    return this.store.agents(q);
  }

  /** Registers or updates an agent; audited `agent.register` (created or updated, with its name and type). */
  async registerAgent(a: Parameters<Store['registerAgent']>[0]): Promise<{ agent: AgentRow; created: boolean }> {
    const r = await this.store.registerAgent(a);
    await this.audit('agent.register', this.who.auditActor, r.agent.id, { created: r.created, name: r.agent.name, type: r.agent.type });
    return r;
  }

  claimsHeldBy(agent: string): ClaimRow[] {
    return this.store.claimsHeldBy(agent);
  }

  // ── tasks and claims ────────────────────────────────────────────────────

  task(id: string): TaskRow | null {
    return this.store.task(id);
  }

  tasks(q: Parameters<Store['tasks']>[0] = {}): TaskRow[] {
    return this.store.tasks(q);
  }

  liveClaims(taskId: string): ClaimRow[] {
    return this.store.liveClaims(taskId);
  }

  async createTask(t: Parameters<Store['createTask']>[0]): Promise<TaskRow> {
    const task = await this.store.createTask(t);
    await this.audit('task.create', this.auditActor(t.created_by), task.id, { title: task.title, tags: task.tags });
    return task;
  }

  async claim(c: Parameters<Store['claim']>[0]): Promise<{ claim: ClaimRow; already_held: boolean }> {
    const r = await this.store.claim(c);
    await this.audit('task.claim', this.auditActor(c.agent), c.task_id, { aspect: c.aspect, expires_at: r.claim.expires_at, already_held: r.already_held });
    return r;
  }

  async renew(c: Parameters<Store['renew']>[0]): Promise<ClaimRow> {
    const claim = await this.store.renew(c);
    await this.audit('task.renew', this.auditActor(c.agent), c.task_id, { aspect: c.aspect, expires_at: claim.expires_at });
    return claim;
  }

  async release(c: Parameters<Store['release']>[0]): Promise<ClaimRow> {
    const claim = await this.store.release(c);
    await this.audit('task.release', this.auditActor(c.agent), c.task_id, { aspect: c.aspect });
    return claim;
  }

  /** Closes an open task as cancelled (its creator, a claimant, or the person), audited `task.cancel` with the reason. */
  async cancel(taskId: string, agent: string, reason: string | null): Promise<{ task: TaskRow; released: ClaimRow[] }> {
    const r = await this.store.cancelTask(taskId, agent, this.who.isPerson);
    await this.audit('task.cancel', this.auditActor(agent), r.task.id, { reason, released: r.released.map((c) => c.aspect) });
    return r;
  }

  /** Every change to agents, tasks, claims and findings is audited after the store has it (a refused call leaves none). */
  private async audit(action: AuditAction, actor: AuditActor, target: string, data: Record<string, unknown>): Promise<void> {
    await this.services.governance.audit.append({ action, actor, target, data });
  }

  /** Completes an open task and records its outcome (cited and misleading notes already resolved). */
  async complete(taskId: string, agent: string, outcome: Parameters<Store['completeTask']>[2]): Promise<{ task: TaskRow; released: ClaimRow[]; outcome: TaskOutcomeRow }> {
    const r = await this.store.completeTask(taskId, agent, outcome);
    const o = r.outcome;
    await this.audit('task.complete', this.auditActor(agent), taskId, { receipt: o.receipt_id, cited: o.cited_nodes.length, misleading: o.misleading_nodes.length, released: r.released.map((c) => c.aspect) });
    return r;
  }

  /** Marks the task's outcome as learned from (its feedback was applied). */
  markOutcomeLearned(taskId: string): Promise<TaskOutcomeRow> {
    return this.store.markOutcomeLearned(taskId);
  }

  /** The agent's retrievals for the task (up to 50), whose feedback a completion without receipt ids gives. */
  async receiptsFor(taskId: string, agent: string): Promise<Receipt[]> {
    return (await this.services.retrieval.receipts.query({ task: taskId, agent, limit: 50 })).receipts;
  }

  // ── notes named on a task ───────────────────────────────────────────────

  /**
   * The note a reference (id, path, title or alias) names, if the acting agent may see it on this task; a
   * note it may not see is reported as missing (null), so its existence does not leak.
   */
  visibleNote(ref: string, agent: string, taskId: string): LiveNote | null {
    const note = this.services.notes.note(ref);
    if (!note) return null;
    const viewer = this.services.governance.viewerFor(this.who.isPerson && agent === 'human' ? { kind: 'human', agent_id: null } : { kind: 'agent', agent_id: agent }, taskId);
    return canSee(viewer, gatedNote(note)) ? note : null;
  }

  async postFinding(f: Parameters<Store['postFinding']>[0]): Promise<FindingRow> {
    const row = await this.store.postFinding(f);
    await this.audit('finding.post', this.auditActor(f.agent), f.task_id, { finding: row.id, knowledge_id: row.knowledge_id });
    return row;
  }

  /** The task's findings, oldest first; one naming a note the viewer may not see names none (knowledge_id null). */
  findings(taskId: string, since?: number): FindingRow[] {
    return this.store.findings(taskId, since).map((f) => (f.knowledge_id !== null && !this.notes.seesId(f.knowledge_id) ? { ...f, knowledge_id: null } : f));
  }

  /** The task's completion outcome, its cited and misleading notes cut to those the viewer may see. */
  outcome(taskId: string): TaskOutcomeRow | null {
    const o = this.store.outcome(taskId);
    if (!o) return null;
    const seen = (id: string) => this.notes.seesId(id);
    return { ...o, cited_nodes: o.cited_nodes.filter(seen), misleading_nodes: o.misleading_nodes.filter(seen) };
  }
}
