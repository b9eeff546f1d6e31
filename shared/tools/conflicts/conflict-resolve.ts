import { z } from 'zod';
import { RESOLUTIONS } from '../../stores/conflict-edges';
import { defineTool } from '../knowledge/common';
import { conflictJson } from './common';

const input = z.strictObject({
  edge_id: z.string().min(1).describe('The conflict, from lithos_conflict_list or a retrieval result.'),
  resolution: z.enum(RESOLUTIONS).describe(
    'superseded: winner replaces the other (winner lists it in supersedes; the other is archived with a callout). refuted: the other is wrong (it ranks lower from now on). accepted_dual: both stand (e.g. different contexts). merged: both were merged into winner_id.',
  ),
  winner_id: z.string().min(1).optional().describe('superseded/refuted: the note that stands (id or path, one of the two). merged: the merge note. Not for accepted_dual.'),
  resolver: z.string().trim().min(1).optional().describe('Who settles it; default you. An agent can only name itself.'),
});

export const lithosConflictResolve = defineTool({
  name: 'lithos_conflict_resolve',
  title: 'Resolve a conflict',
  description:
    'Settle a contradiction between two notes. Check both notes first (lithos_read). superseded edits both notes, so an agent may choose it only where it may write both. Returns the conflict in its new state and every change made (frontmatter, learned stats, edges). The callouts in both notes are removed. A conflict already resolved (other than accepted_dual) cannot be resolved again, except one settled automatically (newest wins between task records or status notes: evidence.resolution.automatic), which stays open to review: repeating it confirms it with its effects, another resolution replaces it. Otherwise repeating the same resolution changes nothing.',
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(a: z.infer<typeof input>, ctx) {
    const r = await ctx.memory.conflicts.resolve(a, 'lithos_conflict_resolve');
    return { conflict: conflictJson(ctx, r.conflict), changes: r.changes, unchanged: r.unchanged };
  },
});
