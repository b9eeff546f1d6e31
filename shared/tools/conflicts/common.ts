/** Shared pieces of the conflict tools (conflict-open.ts, conflict-list.ts, conflict-resolve.ts). */
import { LithosError } from '../../errors';
import { gatedNote } from '../../governance/gate';
import { CONFLICT_EDGE_TYPE, type Conflict, type ConflictEvidence } from '../../stores/conflict-edges';
import type { EdgeRow } from '../../stores/memory-types';
import type { ConflictActor } from '../../conflicts/conflicts';
import type { ToolContext } from '../types';
import { actorOf, findByIdOrPath, visibleTo } from '../knowledge/common';
import { edgeJson } from '../knowledge/edge-common';
import { boundJson } from '../text-budget';

/** The caller as a conflict actor (its id becomes provenance_actor / resolver). */
export function conflictActorOf(ctx: ToolContext, tool: string): ConflictActor {
  const id = actorOf(ctx, tool);
  return ctx.caller.kind === 'human' ? { kind: 'human', id: null } : { kind: 'agent', id };
}

/** Whether the caller may see a node id (both ends of a conflict must pass). */
export function seesNode(ctx: ToolContext): (id: string) => boolean {
  const see = visibleTo(ctx);
  return (id) => {
    const n = ctx.engine.note(id);
    return n !== null && n.nodeId === id && see(gatedNote(n));
  };
}

/** A conflict with both ends as id, path and title; null when the caller may not see both ends. */
export function conflictJson(ctx: ToolContext, c: Conflict): Record<string, unknown> | null {
  const sees = seesNode(ctx);
  if (!sees(c.a) || !sees(c.b)) return null;
  const end = (id: string) => {
    const n = ctx.engine.note(id)!;
    return { id, path: n.path, title: n.cached.meta.title, status: n.cached.meta.status };
  };
  // Evidence quotes claims from both notes, of any length: cut to FIELD_MAX_CHARS, flagged `truncated`.
  const evidence = boundJson(c.evidence satisfies ConflictEvidence);
  return {
    edge_id: c.edge_id,
    state: c.state,
    a: end(c.a),
    b: end(c.b),
    evidence: evidence.value,
    ...(evidence.truncated ? { truncated: true } : {}),
    provenance_type: c.provenance_type,
    provenance_actor: c.provenance_actor,
    created_at: new Date(c.created_at).toISOString(),
    updated_at: new Date(c.updated_at).toISOString(),
  };
}

/** A conflict by edge_id that the caller may see; not_found otherwise (its existence does not leak). */
export function requireConflict(ctx: ToolContext, edgeId: string): Conflict {
  const c = ctx.engine.conflicts.get(edgeId);
  if (!c || !conflictJson(ctx, c)) throw new LithosError('not_found', `No conflict with edge_id "${edgeId}". lithos_conflict_list shows them.`, { edge_id: edgeId });
  return c;
}

/**
 * Opens a conflict for lithos_conflict_open and lithos_edge_create with type `contradicts`, so both give
 * the same object: state `unreviewed`, audited `conflict.create`, callouts written.
 */
export async function openConflictFor(ctx: ToolContext, tool: string, a: { from: string; to: string; evidence?: unknown; weight?: number; namespace?: string; conflict_state?: string | null }) {
  if (a.conflict_state !== undefined && a.conflict_state !== null && a.conflict_state !== 'unreviewed') {
    throw new LithosError('invalid_argument', `A new conflict starts unreviewed; settle it with lithos_conflict_resolve (got conflict_state "${a.conflict_state}").`, { field: 'conflict_state' });
  }
  const actor = conflictActorOf(ctx, tool);
  const from = findByIdOrPath(ctx, a.from);
  const to = findByIdOrPath(ctx, a.to);
  if (from.nodeId === to.nodeId) throw new LithosError('invalid_argument', 'A conflict needs two different notes.', { field: 'to' });
  const r = await ctx.engine.conflicts.open({ a: from.nodeId, b: to.nodeId, evidence: a.evidence, actor, weight: a.weight, namespace: a.namespace });
  return { conflict: conflictJson(ctx, r.conflict), created: r.created };
}

/** lithos_edge_create with type `contradicts`: the conflict path, answered in the edge tool's shape. */
export async function openConflictAsEdge(ctx: ToolContext, a: { from: string; to: string; evidence?: unknown; weight?: number; namespace?: string; conflict_state?: string | null }) {
  const r = await openConflictFor(ctx, 'lithos_edge_create', a);
  const id = r.conflict?.edge_id;
  const row = ctx.engine.memory.edges.find({ type: CONFLICT_EDGE_TYPE }).find((e) => e.edge_id === id);
  return { edge: row ? edgeJson(ctx, row) : null, conflict: r.conflict, created: r.created };
}

/** lithos_edge_update may not move a conflict's state: resolutions have effects only lithos_conflict_resolve applies. */
export function checkConflictEdgeUpdate(e: EdgeRow, a: { type?: string; conflict_state?: string | null }): void {
  const touchesState = a.conflict_state !== undefined && a.conflict_state !== e.conflict_state;
  if ((e.type === CONFLICT_EDGE_TYPE && (touchesState || (a.type !== undefined && a.type !== e.type))) || (e.type !== CONFLICT_EDGE_TYPE && a.type === CONFLICT_EDGE_TYPE)) {
    throw new LithosError('invalid_argument', 'Conflicts (contradicts edges) are opened with lithos_conflict_open and settled with lithos_conflict_resolve, not changed here.', {
      edge_id: e.edge_id,
    });
  }
}
