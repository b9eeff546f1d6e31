/** Shared pieces of the edge tools (edge-create.ts, edge-list.ts, edge-update.ts). */
import { z } from 'zod';
import { gatedNote } from '../../governance/gate';
import { LithosError } from '../../errors';
import { EDGE_TYPES } from '../../model/types';
import type { EdgeRow } from '../../stores/memory-store';
import type { ToolContext } from '../types';
import { boundJson } from '../text-budget';
import { visibleTo } from './common';

const EDGE_TYPE_HELP = `Edge type: one of ${EDGE_TYPES.join(', ')} (or another short snake_case verb).`;
export const edgeType = z.string().trim().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a short snake_case word such as "supports"').describe(EDGE_TYPE_HELP);
export const weight = z.number().min(0).max(1).describe('Strength 0–1.');
export const evidence = z.unknown().optional().describe('Why the edge holds: any JSON (quote, receipt id, task id).');
export const conflictState = z.string().min(1).nullable().optional().describe('e.g. "open" when the two notes disagree and nobody has settled it; null clears it.');

/** An edge with both ends as paths and titles, when the caller may see both; null otherwise. */
export function edgeJson(ctx: ToolContext, e: EdgeRow): Record<string, unknown> | null {
  const see = visibleTo(ctx);
  const from = ctx.engine.note(e.from_id);
  const to = ctx.engine.note(e.to_id);
  if (!from || from.nodeId !== e.from_id || !to || to.nodeId !== e.to_id || !see(gatedNote(from)) || !see(gatedNote(to))) return null;
  // Evidence is any JSON an agent gave (quotes from notes): cut to FIELD_MAX_CHARS, flagged `truncated`.
  const evidence = boundJson(e.evidence);
  return { ...e, evidence: evidence.value, from_path: from.path, from_title: from.cached.meta.title, to_path: to.path, to_title: to.cached.meta.title, ...(evidence.truncated ? { truncated: true } : {}) };
}

export function requireEdge(ctx: ToolContext, edgeId: string): EdgeRow {
  const e = ctx.engine.memory.edges.find({}).find((x) => x.edge_id === edgeId);
  if (!e || !edgeJson(ctx, e)) throw new LithosError('not_found', `No edge with id "${edgeId}". lithos_edge_list shows the edges of a note.`, { edge_id: edgeId });
  return e;
}


/** What the audit trail keeps of an edge change: the ends, the type and the values before and after. */
export function edgeAudit(row: EdgeRow, before: EdgeRow | null): Record<string, unknown> {
  const pick = (e: EdgeRow) => ({ type: e.type, weight: e.weight, namespace: e.namespace, conflict_state: e.conflict_state });
  return { from: row.from_id, to: row.to_id, ...pick(row), created: before === null, ...(before ? { before: pick(before) } : {}) };
}
