/**
 * The conflicts a session's viewer may know of: those whose both notes it sees. A conflict with an end it may
 * not see does not exist here (not_found, as for no conflict at all). Opening takes two notes it sees;
 * resolving carries the checks an agent's resolution must pass (it resolves as itself, and supersedes only
 * where it may write both notes).
 */
import { LithosError } from '../errors';
import { CONFLICT_EDGE_TYPE, type Conflict, type ConflictState, type Resolution } from '../stores/conflict-edges';
import type { ConflictActor, ResolutionChange } from '../conflicts/conflicts';
import { gatedNote } from '../governance/gate';
import { checkNoteWrite } from '../governance/write-policy';
import { personNoteDecision } from '../governance/trust-boundary';
import { protectedNote } from '../vault/note-editors';
import type { LiveNote } from '../vault/note-indexer';
import type { EdgeRow } from '../stores/memory-types';
import type { NotesRoom } from './notes-room';
import type { Services } from './services';
import type { SessionScope } from './session-scope';

export interface OpenConflictArgs {
  /** The two notes, each an id or a vault path. */
  from: string;
  to: string;
  evidence?: unknown;
  weight?: number;
  namespace?: string;
}

export interface ResolveConflictArgs {
  edge_id: string;
  resolution: Resolution;
  /** superseded/refuted: the note that stands; merged: the merge note (id or path). */
  winner_id?: string;
  /** Who settles it: the person may name someone; an agent only itself. */
  resolver?: string;
}

export class ConflictsRoom {
  constructor(
    private readonly services: Services,
    private readonly who: SessionScope,
    private readonly notes: NotesRoom,
  ) {}

  /** Whether the viewer sees both ends of the conflict. */
  sees(c: Conflict): boolean {
    return this.notes.seesId(c.a) && this.notes.seesId(c.b);
  }

  /** Conflicts the viewer sees, oldest first; `node` (id or path) must be a note it sees (not_found otherwise). */
  list(q: { state?: ConflictState; node?: string } = {}): Conflict[] {
    const node = q.node !== undefined ? this.notes.findByIdOrPath(q.node).nodeId : undefined;
    return this.services.conflicts.list({ state: q.state, node, visible: (id) => this.notes.seesId(id) });
  }

  /** A conflict by edge_id that the viewer sees; not_found otherwise (its existence does not leak). */
  get(edgeId: string): Conflict {
    const c = this.services.conflicts.get(edgeId);
    if (!c || !this.sees(c)) throw new LithosError('not_found', `No conflict with edge_id "${edgeId}". lithos_conflict_list shows them.`, { edge_id: edgeId });
    return c;
  }

  /** The contradicts edge behind a conflict the viewer sees, as the edge tools show edges. */
  edge(edgeId: string): EdgeRow | null {
    const c = this.services.conflicts.get(edgeId);
    if (!c || !this.sees(c)) return null;
    return this.services.learning.memory.edges.find({ type: CONFLICT_EDGE_TYPE }).find((e) => e.edge_id === edgeId) ?? null;
  }

  /**
   * Opens a conflict between two notes the viewer sees (state `unreviewed`, audited `conflict.create`,
   * callouts written); a pair that has one already gets it back with created=false.
   */
  async open(a: OpenConflictArgs, tool: string): Promise<{ conflict: Conflict; created: boolean }> {
    const actor = this.actor(tool);
    const from = this.notes.findByIdOrPath(a.from);
    const to = this.notes.findByIdOrPath(a.to);
    if (from.nodeId === to.nodeId) throw new LithosError('invalid_argument', 'A conflict needs two different notes.', { field: 'to' });
    return this.services.conflicts.open({ a: from.nodeId, b: to.nodeId, evidence: a.evidence, actor, weight: a.weight, namespace: a.namespace });
  }

  /** Settles a conflict the viewer sees, with every change it made. */
  async resolve(a: ResolveConflictArgs, tool: string): Promise<{ conflict: Conflict; changes: ResolutionChange[]; unchanged: boolean }> {
    const actor = this.actor(tool);
    if (a.resolver !== undefined && actor.kind === 'agent' && a.resolver !== actor.id) {
      throw new LithosError('invalid_argument', `An agent resolves conflicts as itself ("${actor.id}"); resolver "${a.resolver}" is not you.`, { field: 'resolver' });
    }
    const resolver: ConflictActor = actor.kind === 'human' && a.resolver !== undefined ? { kind: 'human', id: a.resolver } : actor;
    const c = this.get(a.edge_id);
    const winner = a.winner_id !== undefined ? this.notes.findByIdOrPath(a.winner_id).nodeId : null;
    if (a.resolution === 'superseded' && actor.kind === 'agent' && (winner === c.a || winner === c.b)) this.checkSupersede(c, winner);
    return this.services.conflicts.resolve({ edge_id: c.edge_id, resolution: a.resolution, resolver, winner_id: winner });
  }

  /** Superseding edits both notes (the winner's supersedes, the loser's status): only as writes the agent may make. */
  private checkSupersede(c: Conflict, winner: string): void {
    const ends = [c.a, c.b].map((id) => this.services.notes.note(id)).filter((n): n is LiveNote => n !== null);
    for (const n of ends) {
      if (n.nodeId !== winner && n.cached.meta.status === 'quarantined') {
        throw new LithosError('forbidden', `Cannot supersede "${n.path}": it is quarantined, and a person reviews it (archiving it would lift the quarantine).`, { path: n.path });
      }
    }
    for (const n of ends) {
      const g = { ...gatedNote(n), path: n.path };
      const policy = this.services.governance.policy.get();
      if (checkNoteWrite(this.who.viewer, policy, g, g) === 'propose') {
        throw new LithosError('forbidden', `Cannot supersede: changes in "${n.cached.meta.namespace}" are confirmed by a person, so a person resolves this conflict (or propose the edit with lithos_write).`, { path: n.path, namespace: n.cached.meta.namespace });
      }
      // The trust boundary: superseding changes both notes, and the person's note is changed by the person only.
      if (personNoteDecision(this.who.viewer, policy, 'write', n.path, protectedNote(this.services.notes.ownership(n))) === 'propose') {
        throw new LithosError('forbidden', `Cannot supersede: "${n.path}" is the person's note (they created or last edited it), so the person resolves this conflict (or propose the edit with lithos_write).`, { path: n.path, person_note: true });
      }
    }
  }

  /** The caller as a conflict actor (its id becomes provenance_actor / resolver). */
  private actor(tool: string): ConflictActor {
    const id = this.who.actor(tool);
    return this.who.isPerson ? { kind: 'human', id: null } : { kind: 'agent', id };
  }
}
