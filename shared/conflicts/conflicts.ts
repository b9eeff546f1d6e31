/**
 * Conflict objects (docs/contradictions.md): open, list, resolve, rule detection and the managed
 * callouts that follow them. One per engine (`services.conflicts`).
 *
 * Rule detection runs for notes that change after the engine is open — the engine's own writes and the
 * host's file events — never during a reconcile, so bulk indexing costs nothing more; `scan()` (`lithos
 * conflicts scan`) runs it over the whole vault. Changed paths are queued and handled off the sync queue
 * (a detection may write callouts, which re-enter sync); `drain()` handles them now, and the engine's
 * flush drains first.
 */
import { LithosError, asLithosError } from '../errors';
import type { AuditActor } from '../governance/audit';
import type { EdgeRow } from '../stores/memory-types';
import type { LiveNote } from '../vault/note-indexer';
import { ruleFindings } from './detection';
import { replaces, targetFindings } from './target-rule';
import { syncCallouts } from './callouts';
import { edgeInput, merge, refute, supersede } from './resolution-effects';
import type { ConflictPorts } from './conflict-ports';
import {
  CONFLICT_EDGE_TYPE,
  RESOLUTIONS,
  normaliseEvidence,
  toConflict,
  type Conflict,
  type ConflictActor,
  type ConflictEvidence,
  type ConflictState,
  type Resolution,
  type ResolutionChange,
  type ResolutionRecord,
} from '../stores/conflict-edges';
import { DETECTION_LIMITS } from './constants';
import { PRECEDENCE_ACTOR, newestWinner } from './precedence';

export type { ConflictActor, ResolutionChange } from '../stores/conflict-edges';

export interface OpenConflictInput {
  a: string;
  b: string;
  evidence?: unknown;
  actor: ConflictActor;
  /** Default the first note's namespace. */
  namespace?: string;
  /** Default 1: a contradiction is a strong relation for the contradictions scout. */
  weight?: number;
}

export interface ResolveInput {
  edge_id: string;
  resolution: Resolution;
  resolver: ConflictActor;
  /** superseded/refuted: the note that stands (an end); merged: the merge note. */
  winner_id?: string | null;
}

/** The policy (its audience-deciding parts) the callouts were last synced under. */
const POLICY_MARK = 'callouts:policy';

export class ConflictService {
  private enabled: boolean;
  private readonly pending = new Set<string>();
  private timer: unknown = null;
  private running: Promise<void> = Promise.resolve();
  /** Paths whose callouts this service is writing: their change events are its own echo. */
  private readonly writing = new Set<string>();
  /** Notes whose callouts were written while scan() runs (null otherwise): what it reports as callouts_written. */
  private writtenDuringScan: Set<string> | null = null;

  private unfollowPolicy: () => void = () => undefined;

  constructor(private readonly d: ConflictPorts) {
    this.enabled = d.callouts;
  }

  get calloutsEnabled(): boolean {
    return this.enabled;
  }

  // ── objects ─────────────────────────────────────────────────────────────

  get(edgeId: string): Conflict | null {
    const e = this.d.memory.edges.find({ type: CONFLICT_EDGE_TYPE }).find((x) => x.edge_id === edgeId);
    return e ? toConflict(e) : null;
  }

  /** Conflicts, oldest first; `visible` drops those with an end the caller may not see (both ends must pass). */
  list(q: { state?: ConflictState; node?: string; visible?: (id: string) => boolean } = {}): Conflict[] {
    const rows = q.node
      ? dedupe([...this.d.memory.edges.find({ from: q.node, type: CONFLICT_EDGE_TYPE }), ...this.d.memory.edges.find({ to: q.node, type: CONFLICT_EDGE_TYPE })])
      : this.d.memory.edges.find({ type: CONFLICT_EDGE_TYPE });
    return rows
      .map(toConflict)
      .filter((c) => (q.state === undefined || c.state === q.state) && (!q.visible || (q.visible(c.a) && q.visible(c.b))))
      .sort((x, y) => x.created_at - y.created_at || (x.edge_id < y.edge_id ? -1 : 1));
  }

  /** The conflict between two notes in either direction, if any. */
  between(a: string, b: string): Conflict | null {
    const e = this.d.memory.edges.find({ from: a, to: b, type: CONFLICT_EDGE_TYPE })[0] ?? this.d.memory.edges.find({ from: b, to: a, type: CONFLICT_EDGE_TYPE })[0];
    return e ? toConflict(e) : null;
  }

  /**
   * Opens a conflict (state `unreviewed`) between two live notes, audited `conflict.create`, and writes the
   * callouts. A pair that already has a conflict, in either direction and in any state, gets no second
   * one: the existing conflict is returned with `created: false` (so a conflict a person resolved is never
   * re-opened by a rule).
   */
  async open(input: OpenConflictInput): Promise<{ conflict: Conflict; created: boolean }> {
    const a = this.live(input.a, 'a');
    const b = this.live(input.b, 'b');
    if (a.nodeId === b.nodeId) throw new LithosError('invalid_argument', 'A conflict needs two different notes.', { a: input.a, b: input.b });
    const existing = this.between(a.nodeId, b.nodeId);
    if (existing) return { conflict: existing, created: false };
    const evidence = normaliseEvidence(input.evidence);
    const row = await this.d.memory.edges.upsert({
      from_id: a.nodeId,
      to_id: b.nodeId,
      type: CONFLICT_EDGE_TYPE,
      weight: input.weight ?? 1,
      namespace: input.namespace ?? a.cached.meta.namespace,
      provenance_actor: input.actor.id ?? input.actor.kind,
      provenance_type: input.actor.kind,
      evidence,
      conflict_state: 'unreviewed',
    });
    await this.d.audit.append({
      action: 'conflict.create',
      actor: auditActor(input.actor),
      target: row.edge_id,
      data: { a: a.nodeId, b: b.nodeId, a_path: a.path, b_path: b.path, rule: evidence.rule ?? null },
    });
    // A person who opens a conflict asks to review it; a rule's or an agent's between two status-like notes settles itself.
    const settled = input.actor.kind === 'human' ? null : await this.settleByPrecedence(row);
    if (!settled) await this.syncPair(a.nodeId, b.nodeId);
    return { conflict: settled ?? toConflict(row), created: true };
  }

  /**
   * Newest wins (precedence.ts): a conflict between two notes that both go by it is resolved `superseded`
   * with the later note standing, by PRECEDENCE_ACTOR, audited like any resolution and marked automatic.
   * It edits neither note (the engine does not rewrite task records on its own): the older one ranks below
   * the newer and carries a status callout, and a person or agent may confirm (which archives it) or
   * reverse it with lithos_conflict_resolve. Null when the pair is not settled by timestamps.
   */
  private async settleByPrecedence(row: EdgeRow): Promise<Conflict | null> {
    const c = toConflict(row);
    const a = this.d.notes.note(c.a);
    const b = this.d.notes.note(c.b);
    if (c.state !== 'unreviewed' || !a || !b) return null;
    const winner = newestWinner(a, b);
    if (!winner) return null;
    const loser = winner === a ? b : a;
    return this.record(row, 'superseded', PRECEDENCE_ACTOR, winner.nodeId, loser.nodeId, [], true);
  }

  /**
   * Settles a conflict (docs/contradictions.md → resolution semantics). Only an `unreviewed` or
   * `accepted_dual` conflict can be resolved; repeating the resolution it already has is a no-op.
   */
  async resolve(input: ResolveInput): Promise<{ conflict: Conflict; changes: ResolutionChange[]; unchanged: boolean }> {
    if (!(RESOLUTIONS as readonly string[]).includes(input.resolution)) {
      throw new LithosError('invalid_argument', `resolution must be one of ${RESOLUTIONS.join(', ')} (got "${String(input.resolution)}").`, { resolution: input.resolution });
    }
    const row = this.d.memory.edges.find({ type: CONFLICT_EDGE_TYPE }).find((x) => x.edge_id === input.edge_id);
    if (!row) throw new LithosError('not_found', `No conflict with edge_id "${input.edge_id}". lithos_conflict_list shows the open ones.`, { edge_id: input.edge_id });
    const c = toConflict(row);
    const winnerId = input.winner_id ?? null;
    // An automatic resolution (newest wins) stays open to review: repeating it confirms it, with its effects.
    const automatic = c.evidence.resolution?.automatic === true;
    if (!automatic && c.state === input.resolution && (c.evidence.resolution?.winner_id ?? null) === (input.resolution === 'accepted_dual' ? null : winnerId)) {
      return { conflict: c, changes: [], unchanged: true };
    }
    if (c.state !== 'unreviewed' && c.state !== 'accepted_dual' && !automatic) {
      const r = c.evidence.resolution;
      throw new LithosError('conflict', `Conflict ${c.edge_id} is already resolved as ${c.state}${r ? ` by ${r.resolver} at ${r.at}` : ''}; it cannot be resolved again.`, {
        edge_id: c.edge_id,
        state: c.state,
      });
    }
    let loserId: string | null = null;
    if (input.resolution === 'superseded' || input.resolution === 'refuted') {
      if (winnerId !== c.a && winnerId !== c.b) {
        const names = `"${this.d.notes.note(c.a)?.cached.meta.title ?? c.a}" (${c.a}) or "${this.d.notes.note(c.b)?.cached.meta.title ?? c.b}" (${c.b})`;
        const why = winnerId === null ? `${input.resolution} needs winner_id: the note that stands` : `winner_id ${winnerId} is neither note of this conflict; the winner is the note that stands`;
        throw new LithosError('invalid_argument', `${why}, ${names}.`, { field: 'winner_id', a: c.a, b: c.b });
      }
      loserId = winnerId === c.a ? c.b : c.a;
      this.live(winnerId, 'winner_id');
      this.live(loserId, 'loser');
    } else if (input.resolution === 'merged') {
      if (!winnerId) throw new LithosError('invalid_argument', 'merged needs winner_id: the id of the note both were merged into.', { field: 'winner_id' });
      this.live(winnerId, 'winner_id');
    } else if (winnerId !== null) {
      throw new LithosError('invalid_argument', 'accepted_dual keeps both notes: give no winner_id.', { field: 'winner_id' });
    }

    const changes: ResolutionChange[] = [];
    if (input.resolution === 'superseded') await supersede(this.d, this.live(winnerId, 'winner_id'), this.live(loserId, 'loser'), changes);
    if (input.resolution === 'refuted') await refute(this.d, loserId!, changes);
    if (input.resolution === 'merged') await merge(this.d, c, this.live(winnerId, 'winner_id'), input.resolver, changes);
    const conflict = await this.record(row, input.resolution, input.resolver, input.resolution === 'accepted_dual' ? null : winnerId, loserId, changes, false);
    return { conflict, changes, unchanged: false };
  }

  /** Stores a resolution in the conflict's evidence and state, audits it with its changes, and syncs both callouts. */
  private async record(row: EdgeRow, resolution: Resolution, resolver: ConflictActor, winnerId: string | null, loserId: string | null, changes: ResolutionChange[], automatic: boolean): Promise<Conflict> {
    const c = toConflict(row);
    const record: ResolutionRecord = {
      resolution,
      resolver: resolver.id ?? resolver.kind,
      winner_id: winnerId,
      loser_id: loserId,
      at: new Date(this.d.clock.now()).toISOString(),
      ...(automatic && { automatic: true }),
    };
    const evidence: ConflictEvidence = { ...c.evidence, resolution: record };
    const updated = await this.d.memory.edges.upsert({ ...edgeInput(row), evidence, conflict_state: resolution });
    await this.d.audit.append({
      action: 'conflict.resolve',
      actor: auditActor(resolver),
      target: c.edge_id,
      data: { resolution, a: c.a, b: c.b, winner_id: winnerId, loser_id: loserId, previous_state: c.state, changes, ...(automatic && { automatic: true }) },
    });
    await this.syncPair(c.a, c.b);
    return toConflict(updated);
  }

  // ── rule detection ──────────────────────────────────────────────────────

  /** Compares one note with its candidates (detection.ts) and opens a conflict per disagreeing pair not seen before. */
  async detect(ref: string): Promise<Conflict[]> {
    const note = this.d.notes.note(ref);
    if (!note) return [];
    const opened: Conflict[] = [];
    // A note and one it replaces (`supersedes`) do not contradict each other: one is the other's successor.
    const settled = (id: string): boolean => this.between(note.nodeId, id) !== null || replaces(this.d, note, id);
    const found = [...(await targetFindings(this.d, note, settled)), ...(await ruleFindings(this.d, note, settled))];
    for (const { other, findings } of found) {
      const r = await this.open({
        a: note.nodeId,
        b: other.nodeId,
        evidence: { rule: findings[0].rule, findings },
        actor: { kind: 'rule', id: `rule:${findings[0].rule}` },
        weight: 1,
      });
      if (r.created) opened.push(r.conflict);
    }
    return opened;
  }

  /** Rule detection over every note, then every note's callouts brought in line. */
  async scan(): Promise<{ notes: number; opened: Conflict[]; callouts_written: number }> {
    // Opening a conflict already writes its pair's callouts: count every note written during the scan.
    const written = (this.writtenDuringScan = new Set());
    try {
      const { notes, opened } = await this.detectAll();
      // Every note, not only those in a conflict or quarantined now: a status callout left in a note
      // released while no Lithos process ran (status set back by hand) is taken out too.
      for (const n of this.d.notes.notes().sort((x, y) => (x.path < y.path ? -1 : 1))) await this.syncCallouts(n.nodeId);
      return { notes, opened, callouts_written: written.size };
    } finally {
      this.writtenDuringScan = null;
    }
  }

  /**
   * Rule detection over every note, leaving other notes' callouts as they are (the demo: with callouts off,
   * a full sync would take the managed blocks out of the example notes).
   */
  async detectAll(): Promise<{ notes: number; opened: Conflict[] }> {
    // Conflicts a rule or an agent opened before precedence settled them (an older build) are settled now.
    for (const row of this.d.memory.edges.find({ type: CONFLICT_EDGE_TYPE })) {
      if (row.conflict_state === 'unreviewed' && row.provenance_type !== 'human') await this.settleByPrecedence(row);
    }
    const opened: Conflict[] = [];
    const notes = this.d.notes.notes().sort((x, y) => (x.path < y.path ? -1 : 1));
    for (const n of notes) opened.push(...(await this.detect(n.nodeId)));
    return { notes: notes.length, opened };
  }

  // ── change hook ─────────────────────────────────────────────────────────

  /** Resolves when the queued callout and detection work is done (the engine waits for it before closing). */
  async idle(): Promise<void> {
    if (this.timer !== null) await this.drain();
    await this.running;
  }

  /** Called by sync for a note (re)indexed after the engine opened; not during a reconcile. */
  noteChanged(path: string): void {
    if (this.writing.has(path)) return;
    this.pending.add(path);
    this.timer ??= this.d.timers.setTimeout(() => {
      this.timer = null;
      void this.drain();
    }, 0);
  }

  /**
   * A note left the vault: the notes in a conflict with it drop that callout (a conflict with a note that is
   * gone is shown as such in `lithos conflicts`, and comes back if the note is restored).
   */
  noteRemoved(nodeId: string): void {
    const others = this.partnersOf(nodeId);
    if (others.size === 0) return;
    // Callouts only: the partners themselves did not change, so no rule detection for them.
    this.running = this.running
      .then(async () => {
        for (const id of others) await this.syncCallouts(id);
      })
      .catch((err: unknown) => this.d.logger.warn(`Updating callouts after a note left failed: ${asLithosError(err).message}`));
  }

  /** The notes at the other end of a conflict with this one (any state). */
  private partnersOf(nodeId: string): Set<string> {
    const edges = [...this.d.memory.edges.find({ from: nodeId, type: CONFLICT_EDGE_TYPE }), ...this.d.memory.edges.find({ to: nodeId, type: CONFLICT_EDGE_TYPE })];
    return new Set(edges.map((e) => (e.from_id === nodeId ? e.to_id : e.from_id)).filter((id) => id !== nodeId));
  }

  /** Handles every queued change now: rule detection, then the note's callouts (its status may have changed). */
  drain(): Promise<void> {
    if (this.timer !== null) {
      this.d.timers.clearTimeout(this.timer);
      this.timer = null;
    }
    this.running = this.running.then(async () => {
      if (this.pending.size > DETECTION_LIMITS.burst) {
        this.d.logger.warn(`${this.pending.size} notes changed at once: rule detection skipped for them (run \`lithos conflicts scan\`).`);
      }
      const detect = this.pending.size <= DETECTION_LIMITS.burst;
      while (this.pending.size > 0) {
        const [path] = this.pending;
        this.pending.delete(path);
        try {
          if (detect) await this.detect(path);
          await this.syncCallouts(path);
          // Its partners' callouts name it (title, link): a renamed or restored note updates theirs too.
          const note = this.d.notes.note(path);
          if (note) for (const id of this.partnersOf(note.nodeId)) await this.syncCallouts(id);
        } catch (err) {
          const e = asLithosError(err);
          this.d.logger.warn(`Conflict check of "${path}" failed: ${e.message}`, { code: e.code });
        }
      }
    });
    return this.running;
  }

  // ── callouts ────────────────────────────────────────────────────────────

  /** Brings one note's managed callouts in line with current state; true when it was written. */
  async syncCallouts(ref: string): Promise<boolean> {
    const note = this.d.notes.note(ref);
    if (!note) return false;
    this.writing.add(note.path);
    try {
      const written = await syncCallouts(this.d, note.nodeId, this.enabled);
      if (written) this.writtenDuringScan?.add(note.nodeId);
      return written;
    } finally {
      this.writing.delete(note.path);
    }
  }

  /**
   * For hosts that keep the vault open and write it (the plugin, headless `lithos mcp`): callouts name other
   * notes only where the policy lets every reader see them, so they are brought in line now if the policy
   * changed since they were last synced (a `lithos policy` run, a hand edit while closed), and whenever it
   * changes from here on (settings, a hand edit picked up while open) until stopFollowingPolicy.
   */
  async followPolicy(): Promise<void> {
    this.d.guard();
    this.unfollowPolicy();
    this.unfollowPolicy = this.d.policy.onChange(() => void this.policyChanged());
    await this.policyChanged();
  }

  stopFollowingPolicy(): void {
    this.unfollowPolicy();
    this.unfollowPolicy = () => undefined;
  }

  /**
   * Whether a callout may name the other note depends on the policy (governance/audience.ts): when the parts
   * that decide it differ from those the callouts were last synced under (a mark in memory.sqlite), every
   * note that may carry a callout is synced again, queued behind running work.
   */
  policyChanged(): Promise<void> {
    this.running = this.running.then(async () => {
      try {
        const p = this.d.policy.get();
        const key = JSON.stringify([p.hidden_folders, p.shared_patterns, p.default_namespaces, p.agents, this.d.governance.keysInUse()]);
        if (this.d.memory.learned.mark(POLICY_MARK) === key) return;
        await this.syncAll();
        await this.d.memory.learned.setMark(POLICY_MARK, key);
      } catch (err) {
        const e = asLithosError(err);
        this.d.logger.warn(`Updating callouts after a policy change failed: ${e.message}`, { code: e.code });
      }
    });
    return this.running;
  }

  /** Switches managed callouts on or off and re-syncs every note that may carry one; returns notes written. */
  async setCallouts(on: boolean): Promise<number> {
    this.enabled = on;
    return this.syncAll();
  }

  /** Every end of a conflict and every quarantined or replaced note: the only notes that can hold a managed block. */
  private async syncAll(): Promise<number> {
    const ids = new Set<string>();
    for (const e of this.d.memory.edges.find({ type: CONFLICT_EDGE_TYPE })) {
      ids.add(e.from_id);
      ids.add(e.to_id);
    }
    for (const n of this.d.notes.notes()) {
      const s = n.cached.meta.status;
      // Quarantined, superseded and archived decisions may carry a status callout (replaced-callout.ts).
      if (s === 'quarantined' || s === 'superseded' || (s === 'archived' && n.cached.meta.note_type === 'decision')) ids.add(n.nodeId);
    }
    let written = 0;
    for (const id of [...ids].sort()) if (await this.syncCallouts(id)) written++;
    return written;
  }

  private async syncPair(a: string, b: string): Promise<void> {
    await this.syncCallouts(a);
    await this.syncCallouts(b);
  }

  private live(id: string | null | undefined, field: string): LiveNote {
    const n = id ? this.d.notes.note(id) : null;
    if (!n || n.nodeId !== id) throw new LithosError('not_found', `No live note with id "${String(id)}" (${field}).`, { field, id });
    return n;
  }
}

function dedupe(rows: EdgeRow[]): EdgeRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.edge_id) && seen.add(r.edge_id));
}

function auditActor(a: ConflictActor): AuditActor {
  return { kind: a.kind, id: a.kind === 'human' ? null : a.id };
}
