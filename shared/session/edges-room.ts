/**
 * The typed edges of learned memory as a session's viewer may know them: an edge exists here only when the
 * viewer sees both its ends, so an edge never tells of a note the viewer may not see. Changes record the
 * session's caller as provenance and in the audit trail (edge.upsert, edge.delete).
 */
import { LithosError } from '../errors';
import type { EdgeInput } from '../stores/memory-edges';
import type { EdgeRow } from '../stores/memory-types';
import type { LiveNote } from '../vault/note-indexer';
import type { NotesRoom } from './notes-room';
import type { Services } from './services';
import type { SessionScope } from './session-scope';

/** Edges matching every given field (note ids for from and to). */
export type EdgeQuery = { from?: string; to?: string; type?: string; namespace?: string };

/** An edge as a caller sets it; who set it (provenance) is the session's caller. */
export type EdgeValues = Omit<EdgeInput, 'provenance_actor' | 'provenance_type'>;

/** What the audit trail keeps of an edge change: the ends, the type and the values before and after. */
function edgeAudit(row: EdgeRow, before: EdgeRow | null): Record<string, unknown> {
  const pick = (e: EdgeRow) => ({ type: e.type, weight: e.weight, namespace: e.namespace, conflict_state: e.conflict_state });
  return { from: row.from_id, to: row.to_id, ...pick(row), created: before === null, ...(before ? { before: pick(before) } : {}) };
}

export class EdgesRoom {
  constructor(
    private readonly services: Services,
    private readonly who: SessionScope,
    private readonly notes: NotesRoom,
  ) {}

  /** Edges matching the query whose both ends the viewer sees, oldest first. */
  find(q: EdgeQuery = {}): EdgeRow[] {
    // A note is judged once per call, however many edges touch it.
    const judged = new Map<string, boolean>();
    const sees = (id: string): boolean => {
      let v = judged.get(id);
      if (v === undefined) judged.set(id, (v = this.notes.seesId(id)));
      return v;
    };
    return this.services.learning.memory.edges.find(q).filter((e) => sees(e.from_id) && sees(e.to_id));
  }

  /** Both ends of an edge as notes, when the viewer sees both; null otherwise. */
  ends(e: EdgeRow): { from: LiveNote; to: LiveNote } | null {
    const from = this.notes.byId(e.from_id);
    const to = from && this.notes.byId(e.to_id);
    return from && to ? { from, to } : null;
  }

  /** The edge with this id; not_found when there is none or the viewer may not see both its ends. */
  get(edgeId: string): EdgeRow {
    const e = this.services.learning.memory.edges.find({}).find((x) => x.edge_id === edgeId);
    if (!e || !this.ends(e)) throw notFound(edgeId);
    return e;
  }

  /**
   * Creates an edge, or updates the one with the same edge_id or else the same (from, to, type); the caller
   * becomes its provenance actor. Ends the viewer may not see are not found. `tool` names the front door
   * when an agent gives no id. Returns the edge as stored and as it was before (null: created).
   */
  async upsert(values: EdgeValues, tool: string): Promise<{ row: EdgeRow; before: EdgeRow | null }> {
    const actor = this.who.actor(tool);
    let before: EdgeRow | null;
    if (values.edge_id !== undefined) {
      before = this.current(values.edge_id, values.from_id, values.to_id);
    } else {
      this.notes.find({ id: values.from_id });
      this.notes.find({ id: values.to_id });
      before = this.services.learning.memory.edges.find({ from: values.from_id, to: values.to_id, type: values.type })[0] ?? null;
    }
    const row = await this.services.learning.memory.edges.upsert({ ...values, provenance_actor: actor, provenance_type: this.who.provenance });
    await this.services.governance.audit.append({ action: 'edge.upsert', actor: this.who.auditActor, target: row.edge_id, data: edgeAudit(row, before) });
    return { row, before };
  }

  /** Removes an edge the viewer may see (as get found it); audited with the values it had. */
  async delete(edge: EdgeRow, tool: string): Promise<void> {
    this.who.actor(tool);
    const e = this.current(edge.edge_id, edge.from_id, edge.to_id);
    await this.services.learning.memory.edges.delete(e.edge_id);
    await this.services.governance.audit.append({
      action: 'edge.delete',
      actor: this.who.auditActor,
      target: e.edge_id,
      data: { from: e.from_id, to: e.to_id, type: e.type, weight: e.weight, namespace: e.namespace, conflict_state: e.conflict_state },
    });
  }

  /** The stored edge with this id between these ends (they never change); not_found as get. */
  private current(edgeId: string, from: string, to: string): EdgeRow {
    const e = this.services.learning.memory.edges.find({ from, to }).find((x) => x.edge_id === edgeId);
    if (!e || !this.ends(e)) throw notFound(edgeId);
    return e;
  }
}

function notFound(edgeId: string): LithosError {
  return new LithosError('not_found', `No edge with id "${edgeId}". lithos_edge_list shows the edges of a note.`, { edge_id: edgeId });
}
