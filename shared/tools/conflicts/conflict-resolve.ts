import { z } from 'zod';
import { LithosError } from '../../errors';
import { RESOLUTIONS } from '../../conflicts/conflict-types';
import { defineTool, findByIdOrPath } from '../knowledge/common';
import { conflictActorOf, conflictJson, requireConflict } from './common';

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
    'Settle a contradiction between two notes. Check both notes first (lithos_read). Returns the conflict in its new state and every change made (frontmatter, learned stats, edges). The callouts in both notes are removed. A conflict already resolved (other than accepted_dual) cannot be resolved again; repeating the same resolution changes nothing.',
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(a: z.infer<typeof input>, ctx) {
    const actor = conflictActorOf(ctx, 'lithos_conflict_resolve');
    if (a.resolver !== undefined && actor.kind === 'agent' && a.resolver !== actor.id) {
      throw new LithosError('invalid_argument', `An agent resolves conflicts as itself ("${actor.id}"); resolver "${a.resolver}" is not you.`, { field: 'resolver' });
    }
    const resolver = actor.kind === 'human' && a.resolver !== undefined ? { kind: 'human' as const, id: a.resolver } : actor;
    const c = requireConflict(ctx, a.edge_id);
    const winner = a.winner_id !== undefined ? findByIdOrPath(ctx, a.winner_id).nodeId : null;
    const r = await ctx.engine.conflicts.resolve({ edge_id: c.edge_id, resolution: a.resolution, resolver, winner_id: winner });
    return { conflict: conflictJson(ctx, r.conflict), changes: r.changes, unchanged: r.unchanged };
  },
});
