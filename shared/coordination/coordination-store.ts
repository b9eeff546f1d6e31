import { MemoryReplica } from '../stores/memory-replica';
import type { BindParams } from 'sql.js';
import { LithosError } from '../errors';
import { newId } from '../model/ids';
import type { SqlDb } from '../stores/sql-db';
import type { RecoveredStore } from '../stores/store-recovery';
import type { StoreLoss } from '../stores/store-loss';
import { JournaledStore, type StoreDeps } from '../stores/journaled-store';
import { COORDINATION_FILES, recoverCoordination } from './coordination-recovery';
import {
  AGENT_COLS, applyCoordinationOp, CLAIM_COLS, FINDING_COLS, OUTCOME_COLS, TASK_COLS,
  toAgent, toClaim, toFinding, toOutcome, toTask,
} from './coordination-rows';
import { LAST_SEEN_RESOLUTION_MS, TASK_STATUSES } from './coordination-types';
import type { AgentRow, ClaimRow, CoordinationOp, FindingRow, TaskOutcomeRow, TaskRow, TaskStatus } from './coordination-types';
import { agentId, LIMITS, metadata, optionalText, stringList, text, timestamp, ttlMinutes } from './coordination-validate';
import { claimConflict, noLiveClaim } from './claim-errors';

export type { AgentRow, ClaimRow, CoordinationOp, FindingRow, TaskOutcomeRow, TaskRow, TaskStatus } from './coordination-types';
export { DEFAULT_CLAIM_TTL_MINUTES, MAX_CLAIM_TTL_MINUTES, TASK_STATUSES } from './coordination-types';
export { COORDINATION_JOURNAL, COORDINATION_PREVIOUS, COORDINATION_SCHEMA } from './coordination-schema';

const MINUTE = 60_000;

export interface TaskFilter {
  status?: TaskStatus;
  /** Tasks this agent created. */
  createdBy?: string;
  /** Tasks on which this agent holds a live claim. */
  claimedBy?: string;
  /** Tasks carrying every one of these tags. */
  tags?: string[];
  /** Created at or after (ms). */
  since?: number;
  limit?: number;
}

export interface TaskOutcomeInput {
  receipt_id?: string | null;
  cited_nodes?: string[];
  misleading_nodes?: string[];
  output_text?: string | null;
}

/**
 * coordination.sqlite: who the agents are, the tasks they share, which aspect of a task each one holds,
 * and what they found. Reads are synchronous. A mutation checks and writes inside one synchronous
 * JournaledStore.mutate, so two racing claims are decided in order and cannot both win, and a claim
 * whose expiry has passed is free at that very moment, with no sweeper involved. A mutation's promise
 * resolves once its journal line is durable.
 */
/** A claim is live only on an open task: completing one keeps its claims as lapsed (their agents stay on it). */
const OPEN_TASK = "task_id IN (SELECT id FROM tasks WHERE status = 'open')";

export class CoordinationStore extends JournaledStore<CoordinationOp> {
  /** The devices' shares of tasks, claims, findings and agents (shared/replica); its writes are not watched. */
  readonly replica: MemoryReplica<CoordinationOp>;
  readonly replayedAtOpen: boolean;

  private constructor(db: SqlDb, recovered: RecoveredStore<CoordinationOp>, deps: StoreDeps) {
    super(db, recovered, deps, COORDINATION_FILES, 'coordination store');
    this.replayedAtOpen = recovered.replayed > 0;
    this.replica = new MemoryReplica<CoordinationOp>({ db, clock: deps.clock, mutate: (plan) => this.mutateQuietly(plan) });
  }

  static async open(deps: StoreDeps): Promise<{ store: CoordinationStore; warnings: string[]; losses: StoreLoss[] }> {
    const r = await recoverCoordination(deps);
    const store = new CoordinationStore(r.db, r, deps);
    if (r.replayed) store.persister.markDirty();
    return { store, warnings: r.warnings, losses: r.losses };
  }

  /** The store's clock: claims are live while now < expires_at. */
  now(): number {
    return this.deps.clock.now();
  }

  // ── agents ──────────────────────────────────────────────────────────────

  agent(id: string): AgentRow | null {
    const r = this.db.one(`SELECT ${AGENT_COLS} FROM agents WHERE id = ?`, [id]);
    return r ? toAgent(r) : null;
  }

  agents(q: { type?: string; activeSince?: number } = {}): AgentRow[] {
    const { where, params } = conditions([
      ['type = ?', q.type],
      ['last_seen_at >= ?', q.activeSince],
    ]);
    return this.db.all(`SELECT ${AGENT_COLS} FROM agents ${where} ORDER BY last_seen_at DESC, id`, params).map(toAgent);
  }

  /** Registers an agent on its first call, later refreshes last_seen_at (at most once a minute). */
  async ensureAgent(id: string): Promise<AgentRow> {
    let row: AgentRow | null = null;
    await this.mutate(() => {
      const aid = agentId(id);
      const now = this.now();
      const known = this.agent(aid);
      if (known && now - known.last_seen_at < LAST_SEEN_RESOLUTION_MS) {
        row = known;
        return [];
      }
      row = known ? { ...known, last_seen_at: now } : { id: aid, name: null, type: null, registered_at: now, last_seen_at: now, metadata: {} };
      return [{ kind: 'agent', row }];
    });
    return row as unknown as AgentRow;
  }

  /** Creates or updates an agent; fields left undefined keep their value. */
  async registerAgent(a: { id: string; name?: string | null; type?: string | null; metadata?: Record<string, unknown> }): Promise<{ agent: AgentRow; created: boolean }> {
    let out: { agent: AgentRow; created: boolean } | null = null;
    await this.mutate(() => {
      const id = agentId(a.id, 'id');
      const now = this.now();
      const known = this.agent(id);
      const agent: AgentRow = {
        id,
        name: a.name === undefined ? (known?.name ?? null) : optionalText('name', a.name, LIMITS.name),
        type: a.type === undefined ? (known?.type ?? null) : optionalText('type', a.type, LIMITS.name),
        registered_at: known?.registered_at ?? now,
        last_seen_at: now,
        metadata: a.metadata === undefined ? (known?.metadata ?? {}) : metadata(a.metadata),
      };
      out = { agent, created: known === null };
      return [{ kind: 'agent', row: agent }];
    });
    return out as unknown as { agent: AgentRow; created: boolean };
  }

  // ── tasks ───────────────────────────────────────────────────────────────

  task(id: string): TaskRow | null {
    const r = this.db.one(`SELECT ${TASK_COLS} FROM tasks WHERE id = ?`, [id]);
    return r ? toTask(r) : null;
  }

  /** Newest first. */
  tasks(q: TaskFilter = {}): TaskRow[] {
    if (q.status !== undefined && !TASK_STATUSES.includes(q.status)) {
      throw new LithosError('invalid_argument', `status must be one of ${TASK_STATUSES.join(', ')}.`, { field: 'status', value: q.status });
    }
    const limit = q.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new LithosError('invalid_argument', `limit must be a whole number from 1 to 1000 (got ${String(q.limit)}).`, { field: 'limit', value: q.limit });
    }
    const { where, params } = conditions([
      ['status = ?', q.status],
      ['created_by = ?', q.createdBy],
      ['created_at >= ?', q.since],
      ...(q.claimedBy === undefined
        ? []
        : [['EXISTS (SELECT 1 FROM claims c WHERE c.task_id = tasks.id AND c.agent_id = ? AND c.expires_at > ? AND tasks.status = \'open\')', [q.claimedBy, this.now()]] as const]),
      ...(q.tags ?? []).map((t) => ['EXISTS (SELECT 1 FROM json_each(tasks.tags) WHERE value = ?)', t] as const),
    ]);
    return this.db.all(`SELECT ${TASK_COLS} FROM tasks ${where} ORDER BY created_at DESC, rowid DESC LIMIT ?`, [...params, limit]).map(toTask);
  }

  async createTask(t: { created_by: string; title: string; description?: string | null; tags?: string[]; metadata?: Record<string, unknown> }): Promise<TaskRow> {
    let row: TaskRow | null = null;
    await this.mutate(() => {
      row = {
        id: newId(),
        title: text('title', t.title, LIMITS.title),
        description: optionalText('description', t.description, LIMITS.description, { multiline: true }) ?? '',
        status: 'open',
        created_by: this.knownAgent(t.created_by),
        created_at: this.now(),
        completed_at: null,
        tags: stringList('tags', t.tags, LIMITS.tags, LIMITS.tag),
        metadata: metadata(t.metadata),
      };
      return [{ kind: 'task', row }];
    });
    return row as unknown as TaskRow;
  }

  /**
   * Marks an open task completed, releases every claim on it and records what the agent reported, all
   * as one op. The outcome is evidence for the learning layer; nothing is learned here.
   */
  async completeTask(taskId: string, agent: string, outcome: TaskOutcomeInput = {}): Promise<{ task: TaskRow; released: ClaimRow[]; outcome: TaskOutcomeRow }> {
    let out: { task: TaskRow; released: ClaimRow[]; outcome: TaskOutcomeRow } | null = null;
    await this.mutate(() => {
      const aid = this.knownAgent(agent);
      const task = this.openTask(taskId, 'it cannot be completed again');
      const cited = stringList('cited_nodes', outcome.cited_nodes, LIMITS.nodes, LIMITS.nodeRef);
      const misleading = stringList('misleading_nodes', outcome.misleading_nodes, LIMITS.nodes, LIMITS.nodeRef);
      const both = cited.filter((n) => misleading.includes(n));
      if (both.length) {
        throw new LithosError('invalid_argument', `A node cannot be both cited and misleading: ${both.join(', ')}.`, { nodes: both });
      }
      const now = this.now();
      const row: TaskOutcomeRow = {
        task_id: task.id,
        agent_id: aid,
        receipt_id: optionalText('receipt_id', outcome.receipt_id, LIMITS.receiptId),
        cited_nodes: cited,
        misleading_nodes: misleading,
        output_text: optionalText('output_text', outcome.output_text, LIMITS.outputText, { multiline: true }),
        recorded_at: now,
        learned_at: null,
      };
      const done: TaskRow = { ...task, status: 'completed', completed_at: now };
      out = { task: done, released: this.liveClaims(task.id), outcome: row };
      return [{ kind: 'complete', task: done, outcome: row }];
    });
    return out as unknown as { task: TaskRow; released: ClaimRow[]; outcome: TaskOutcomeRow };
  }

  /**
   * Closes an open task without an outcome (nothing is learned from it); its claims lapse, as on
   * completion. Only its creator or an agent on it (one that claimed an aspect) may; the person always.
   */
  async cancelTask(taskId: string, agent: string, byPerson = false): Promise<{ task: TaskRow; released: ClaimRow[] }> {
    let out: { task: TaskRow; released: ClaimRow[] } | null = null;
    await this.mutate(() => {
      const aid = this.knownAgent(agent);
      const task = this.openTask(taskId, 'it cannot be cancelled');
      // A claim, live or lapsed (a released claim leaves no row): the same "on the task" as the scope gate's.
      const onTask = this.db.one('SELECT 1 FROM claims WHERE task_id = ? AND agent_id = ?', [task.id, aid]) !== null;
      if (!byPerson && task.created_by !== aid && !onTask) {
        throw new LithosError('forbidden', `Only the agent that created task ${task.id} (${task.created_by}) or one that claimed an aspect of it may cancel it.`, { task_id: task.id });
      }
      const done: TaskRow = { ...task, status: 'cancelled', completed_at: this.now() };
      out = { task: done, released: this.liveClaims(task.id) };
      return [{ kind: 'task', row: done }];
    });
    return out as unknown as { task: TaskRow; released: ClaimRow[] };
  }

  // ── claims ──────────────────────────────────────────────────────────────

  /**
   * Takes an aspect of an open task for `ttl_minutes` (default 60, at most 480). Free when nobody holds
   * it or the holder's claim has expired; claiming an aspect one already holds restarts its TTL, so a
   * retried call is harmless. Held by another agent: `conflict` naming the holder and the expiry.
   */
  async claim(c: { task_id: string; aspect: string; agent: string; ttl_minutes?: number }): Promise<{ claim: ClaimRow; already_held: boolean }> {
    let out: { claim: ClaimRow; already_held: boolean } | null = null;
    await this.mutate(() => {
      const aid = this.knownAgent(c.agent);
      const aspect = text('aspect', c.aspect, LIMITS.aspect);
      const ttl = ttlMinutes(c.ttl_minutes);
      const task = this.openTask(c.task_id, 'its aspects can no longer be claimed');
      const now = this.now();
      const held = this.claimRow(task.id, aspect);
      const live = held !== null && held.expires_at > now;
      if (live && held.agent_id !== aid) throw claimConflict(held, now);
      const mine = live && held.agent_id === aid;
      const claim: ClaimRow = { task_id: task.id, aspect, agent_id: aid, claimed_at: mine ? held.claimed_at : now, expires_at: now + ttl * MINUTE };
      out = { claim, already_held: mine };
      return [{ kind: 'claim', row: claim }];
    });
    return out as unknown as { claim: ClaimRow; already_held: boolean };
  }

  /** The holder sets its live claim to expire `ttl_minutes` from now. */
  async renew(c: { task_id: string; aspect: string; agent: string; ttl_minutes?: number }): Promise<ClaimRow> {
    let out: ClaimRow | null = null;
    await this.mutate(() => {
      const held = this.heldBy(c.task_id, c.aspect, c.agent);
      const ttl = ttlMinutes(c.ttl_minutes);
      out = { ...held, expires_at: this.now() + ttl * MINUTE };
      return [{ kind: 'claim', row: out }];
    });
    return out as unknown as ClaimRow;
  }

  /** The holder gives its live claim up; the aspect is free at once. */
  async release(c: { task_id: string; aspect: string; agent: string }): Promise<ClaimRow> {
    let out: ClaimRow | null = null;
    await this.mutate(() => {
      out = this.heldBy(c.task_id, c.aspect, c.agent);
      return [{ kind: 'claim_del', task_id: out.task_id, aspect: out.aspect }];
    });
    return out as unknown as ClaimRow;
  }

  /** Claims on the task that have not expired, by aspect. */
  liveClaims(taskId: string): ClaimRow[] {
    return this.db.all(`SELECT ${CLAIM_COLS} FROM claims WHERE task_id = ? AND expires_at > ? AND ${OPEN_TASK} ORDER BY aspect`, [taskId, this.now()]).map(toClaim);
  }

  claimsHeldBy(agent: string): ClaimRow[] {
    return this.db.all(`SELECT ${CLAIM_COLS} FROM claims WHERE agent_id = ? AND expires_at > ? AND ${OPEN_TASK} ORDER BY expires_at, task_id, aspect`, [agent, this.now()]).map(toClaim);
  }

  /**
   * Tasks the agent is on, for the scope gate: created, claimed (live or lapsed; a released claim leaves no
   * row), posted a finding on, or completed. Sorted ids.
   */
  tasksOf(agent: string): string[] {
    return this.db
      .all(
        `SELECT id FROM tasks WHERE created_by = ?
         UNION SELECT task_id FROM claims WHERE agent_id = ?
         UNION SELECT task_id FROM findings WHERE agent_id = ?
         UNION SELECT task_id FROM task_outcomes WHERE agent_id = ?
         ORDER BY 1`,
        [agent, agent, agent, agent],
      )
      .map((r) => String(r[0]));
  }

  // ── findings and outcomes ───────────────────────────────────────────────

  async postFinding(f: { task_id: string; agent: string; summary: string; knowledge_id?: string | null }): Promise<FindingRow> {
    let row: FindingRow | null = null;
    await this.mutate(() => {
      const agent = this.knownAgent(f.agent);
      const task = this.existingTask(f.task_id);
      row = {
        id: newId(),
        task_id: task.id,
        agent_id: agent,
        summary: text('summary', f.summary, LIMITS.summary, { multiline: true }),
        knowledge_id: optionalText('knowledge_id', f.knowledge_id, LIMITS.nodeRef),
        created_at: this.now(),
      };
      return [{ kind: 'finding', row }];
    });
    return row as unknown as FindingRow;
  }

  /** Oldest first; `since` (ms) keeps those created at or after it. */
  findings(taskId: string, since?: number): FindingRow[] {
    const task = this.existingTask(taskId);
    const from = since === undefined ? -1 : timestamp('since', since);
    return this.db.all(`SELECT ${FINDING_COLS} FROM findings WHERE task_id = ? AND created_at >= ? ORDER BY created_at, rowid`, [task.id, from]).map(toFinding);
  }

  outcome(taskId: string): TaskOutcomeRow | null {
    const r = this.db.one(`SELECT ${OUTCOME_COLS} FROM task_outcomes WHERE task_id = ?`, [taskId]);
    return r ? toOutcome(r) : null;
  }

  /** Outcomes the learning layer has not applied yet, oldest first. */
  pendingOutcomes(): TaskOutcomeRow[] {
    return this.db.all(`SELECT ${OUTCOME_COLS} FROM task_outcomes WHERE learned_at IS NULL ORDER BY recorded_at, task_id`).map(toOutcome);
  }

  /** Called by the learning layer once it has applied an outcome, so it is never applied twice. */
  async markOutcomeLearned(taskId: string): Promise<TaskOutcomeRow> {
    let row: TaskOutcomeRow | null = null;
    await this.mutate(() => {
      const o = this.outcome(taskId);
      if (!o) throw new LithosError('not_found', `Task ${taskId} has no recorded outcome.`, { task_id: taskId });
      row = { ...o, learned_at: this.now() };
      return [{ kind: 'outcome', row }];
    });
    return row as unknown as TaskOutcomeRow;
  }

  counts(): { agents: number; tasks: number; open_tasks: number; live_claims: number; findings: number; pending_outcomes: number } {
    const n = (sql: string, params?: BindParams): number => Number(this.db.one(sql, params)?.[0] ?? 0);
    return {
      agents: n('SELECT COUNT(*) FROM agents'),
      tasks: n('SELECT COUNT(*) FROM tasks'),
      open_tasks: n("SELECT COUNT(*) FROM tasks WHERE status = 'open'"),
      live_claims: n(`SELECT COUNT(*) FROM claims WHERE expires_at > ? AND ${OPEN_TASK}`, [this.now()]),
      findings: n('SELECT COUNT(*) FROM findings'),
      pending_outcomes: n('SELECT COUNT(*) FROM task_outcomes WHERE learned_at IS NULL'),
    };
  }

  // ── internals ───────────────────────────────────────────────────────────

  protected override apply(op: CoordinationOp): void {
    applyCoordinationOp(this.db, op);
  }

  private knownAgent(id: string): string {
    const aid = agentId(id);
    if (!this.agent(aid)) throw new LithosError('not_found', `Agent "${aid}" is not registered.`, { agent: aid });
    return aid;
  }

  private existingTask(id: string): TaskRow {
    const tid = text('task_id', id, LIMITS.nodeRef);
    const task = this.task(tid);
    if (!task) throw new LithosError('not_found', `No task ${tid}.`, { task_id: tid });
    return task;
  }

  /** The task, if it is open; `consequence` ends the conflict message otherwise. */
  private openTask(id: string, consequence: string): TaskRow {
    const task = this.existingTask(id);
    if (task.status !== 'open') {
      const when = task.completed_at === null ? '' : ` at ${new Date(task.completed_at).toISOString()}`;
      throw new LithosError('conflict', `Task ${task.id} is ${task.status}${when}; ${consequence}.`, {
        task_id: task.id,
        status: task.status,
      });
    }
    return task;
  }

  private claimRow(taskId: string, aspect: string): ClaimRow | null {
    const r = this.db.one(`SELECT ${CLAIM_COLS} FROM claims WHERE task_id = ? AND aspect = ?`, [taskId, aspect]);
    return r ? toClaim(r) : null;
  }

  /** The live claim `agent` holds on the aspect, or the error saying why there is none. */
  private heldBy(taskId: string, aspectArg: string, agent: string): ClaimRow {
    const aid = this.knownAgent(agent);
    const aspect = text('aspect', aspectArg, LIMITS.aspect);
    const task = this.openTask(taskId, 'its claims were released when it ended');
    const now = this.now();
    const held = this.claimRow(task.id, aspect);
    if (held && held.expires_at > now && held.agent_id !== aid) throw claimConflict(held, now);
    if (!held || held.expires_at <= now) throw noLiveClaim(task.id, aspect, aid, held);
    return held;
  }
}

/** `WHERE a AND b …` from the conditions whose value is defined (an array value binds several params). */
function conditions(parts: readonly (readonly [string, unknown])[]): { where: string; params: (string | number)[] } {
  const sql: string[] = [];
  const params: (string | number)[] = [];
  for (const [cond, value] of parts) {
    if (value === undefined) continue;
    sql.push(cond);
    params.push(...((Array.isArray(value) ? value : [value]) as (string | number)[]));
  }
  return { where: sql.length ? `WHERE ${sql.join(' AND ')}` : '', params };
}
