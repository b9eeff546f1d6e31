/** Shared pieces of the conflict tools (conflict-open.ts, conflict-list.ts, conflict-resolve.ts). */
import { LithosError } from '../../errors';
import { CONFLICT_EDGE_TYPE, type Conflict, type ConflictEvidence } from '../../conflicts/conflict-types';
import type { EdgeRow } from '../../stores/memory-types';
import type { LiveNote } from '../../vault/note-indexer';
import type { ToolContext } from '../types';
import { edgeJson } from '../knowledge/edge-common';
import { boundJson } from '../text-budget';

/** A conflict with both ends as id, path and title; null when the caller may not see both ends. */
export function conflictJson(ctx: ToolContext, c: Conflict): Record<string, unknown> | null {
  const a = ctx.memory.notes.byId(c.a);
  const b = ctx.memory.notes.byId(c.b);
  if (!a || !b) return null;
  const end = (n: LiveNote) => ({ id: n.nodeId, path: n.path, title: n.cached.meta.title, status: n.cached.meta.status });
  // Evidence quotes claims from both notes, of any length: cut to FIELD_MAX_CHARS, flagged `truncated`.
  const evidence = boundJson(c.evidence satisfies ConflictEvidence);
  return {
    edge_id: c.edge_id,
    state: c.state,
    a: end(a),
    b: end(b),
    evidence: evidence.value,
    ...(evidence.truncated ? { truncated: true } : {}),
    provenance_type: c.provenance_type,
    provenance_actor: c.provenance_actor,
    created_at: new Date(c.created_at).toISOString(),
    updated_at: new Date(c.updated_at).toISOString(),
  };
}

type OpenArgs = { from: string; to: string; evidence?: unknown; weight?: number; namespace?: string; conflict_state?: string | null };

function openConflict(ctx: ToolContext, tool: string, a: OpenArgs) {
  if (a.conflict_state !== undefined && a.conflict_state !== null && a.conflict_state !== 'unreviewed') {
    throw new LithosError('invalid_argument', `A new conflict starts unreviewed; settle it with lithos_conflict_resolve (got conflict_state "${a.conflict_state}").`, { field: 'conflict_state' });
  }
  return ctx.memory.conflicts.open({ from: a.from, to: a.to, evidence: a.evidence, weight: a.weight, namespace: a.namespace }, tool);
}

/**
 * Opens a conflict for lithos_conflict_open and lithos_edge_create with type `contradicts`, so both give
 * the same object: state `unreviewed`, audited `conflict.create`, callouts written.
 */
export async function openConflictFor(ctx: ToolContext, tool: string, a: OpenArgs) {
  const r = await openConflict(ctx, tool, a);
  return { conflict: conflictJson(ctx, r.conflict), created: r.created };
}

/** lithos_edge_create with type `contradicts`: the conflict path, answered in the edge tool's shape. */
export async function openConflictAsEdge(ctx: ToolContext, a: OpenArgs) {
  const r = await openConflict(ctx, 'lithos_edge_create', a);
  const row = ctx.memory.conflicts.edge(r.conflict.edge_id);
  return { edge: row ? edgeJson(ctx, row) : null, conflict: conflictJson(ctx, r.conflict), created: r.created };
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
