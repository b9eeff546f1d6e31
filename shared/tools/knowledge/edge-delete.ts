import { z } from 'zod';
import { defineTool } from './common';
import { LithosError } from '../../errors';
import { CONFLICT_EDGE_TYPE } from '../../conflicts/conflict-types';

const deleteInput = z.strictObject({
  edge_id: z.string().min(1).describe('The edge to remove (from lithos_edge_list or lithos_edge_create).'),
});

export const lithosEdgeDelete = defineTool({
  name: 'lithos_edge_delete',
  title: 'Delete a typed edge',
  description: [
    'Remove a typed edge from the learned memory by edge_id, when the relation it records is simply wrong.',
    'To record that a relation is weak, lower its weight with lithos_edge_update instead; the notes themselves are not touched.',
    'Conflicts (contradicts edges) are settled with lithos_conflict_resolve, not deleted.',
  ].join(' '),
  input: deleteInput,
  // Idempotent as lithos_delete is: deleting again changes nothing more (it answers not_found).
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(a: z.infer<typeof deleteInput>, ctx) {
    ctx.memory.scope.actor('lithos_edge_delete'); // who deletes is asked first, before anything about the edge
    // An edge between notes the caller may not see is not found, as everywhere.
    const e = ctx.memory.edges.get(a.edge_id);
    // A conflict is a record people read (callouts name it, resolutions refer to it): it is settled, not erased.
    if (e.type === CONFLICT_EDGE_TYPE) {
      throw new LithosError('invalid_argument', 'A contradicts edge is a conflict: settle it with lithos_conflict_resolve (accepted_dual when the notes do not really disagree) instead of deleting it.', { edge_id: e.edge_id });
    }
    await ctx.memory.edges.delete(e, 'lithos_edge_delete');
    return { deleted: { edge_id: e.edge_id, from_id: e.from_id, to_id: e.to_id, type: e.type } };
  },
});
