/** Shared pieces of the edge tools (edge-create.ts, edge-list.ts, edge-update.ts) and the conflict tools' edge shape. */
import { z } from 'zod';
import { EDGE_TYPES } from '../../model/types';
import type { EdgeRow } from '../../stores/memory-store';
import type { ToolContext } from '../types';
import { boundJson } from '../text-budget';

const EDGE_TYPE_HELP = `Edge type: one of ${EDGE_TYPES.join(', ')} (or another short snake_case verb).`;
export const edgeType = z.string().trim().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a short snake_case word such as "supports"').describe(EDGE_TYPE_HELP);
export const weight = z.number().min(0).max(1).describe('Strength 0–1.');
export const evidence = z.unknown().optional().describe('Why the edge holds: any JSON (quote, receipt id, task id).');
export const conflictState = z.string().min(1).nullable().optional().describe('e.g. "open" when the two notes disagree and nobody has settled it; null clears it.');

/** An edge with both ends as paths and titles, when the caller may see both; null otherwise. */
export function edgeJson(ctx: ToolContext, e: EdgeRow): Record<string, unknown> | null {
  const ends = ctx.memory.edges.ends(e);
  if (!ends) return null;
  const { from, to } = ends;
  // Evidence is any JSON an agent gave (quotes from notes): cut to FIELD_MAX_CHARS, flagged `truncated`.
  const evidence = boundJson(e.evidence);
  return { ...e, evidence: evidence.value, from_path: from.path, from_title: from.cached.meta.title, to_path: to.path, to_title: to.cached.meta.title, ...(evidence.truncated ? { truncated: true } : {}) };
}
