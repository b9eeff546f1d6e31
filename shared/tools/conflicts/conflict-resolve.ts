import { z } from 'zod';
import { LithosError } from '../../errors';
import { RESOLUTIONS } from '../../stores/conflict-edges';
import { defineTool, findByIdOrPath, viewerOf } from '../knowledge/common';
import { gatedNote } from '../../governance/gate';
import { checkNoteWrite } from '../../governance/write-policy';
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
    'Settle a contradiction between two notes. Check both notes first (lithos_read). superseded edits both notes, so an agent may choose it only where it may write both. Returns the conflict in its new state and every change made (frontmatter, learned stats, edges). The callouts in both notes are removed. A conflict already resolved (other than accepted_dual) cannot be resolved again; repeating the same resolution changes nothing.',
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
    if (a.resolution === 'superseded' && actor.kind === 'agent' && (winner === c.a || winner === c.b)) {
      // Superseding edits both notes (the winner's supersedes, the loser's status): only as a write the agent may make.
      for (const id of [c.a, c.b]) {
        const n = ctx.engine.note(id);
        if (!n) continue;
        const g = { ...gatedNote(n), path: n.path };
        if (id !== winner && n.cached.meta.status === 'quarantined') {
          throw new LithosError('forbidden', `Cannot supersede "${n.path}": it is quarantined, and a person reviews it (archiving it would lift the quarantine).`, { path: n.path });
        }
        if (checkNoteWrite(viewerOf(ctx), ctx.engine.policy.get(), g, g) === 'propose') {
          throw new LithosError('forbidden', `Cannot supersede: changes in "${n.cached.meta.namespace}" are confirmed by a person, so a person resolves this conflict (or propose the edit with lithos_write).`, { path: n.path, namespace: n.cached.meta.namespace });
        }
      }
    }
    const r = await ctx.engine.conflicts.resolve({ edge_id: c.edge_id, resolution: a.resolution, resolver, winner_id: winner });
    return { conflict: conflictJson(ctx, r.conflict), changes: r.changes, unchanged: r.unchanged };
  },
});
