import { z } from 'zod';
import { actorOf, auditActorOf, defineTool } from './common';
import { requireEdge } from './edge-common';

const deleteInput = z.strictObject({
  edge_id: z.string().min(1).describe('The edge to remove (from lithos_edge_list or lithos_edge_create).'),
});

export const lithosEdgeDelete = defineTool({
  name: 'lithos_edge_delete',
  title: 'Delete a typed edge',
  description: [
    'Remove a typed edge from the learned memory by edge_id, when the relation it records is simply wrong.',
    'To record that a relation is weak, lower its weight with lithos_edge_update instead; the notes themselves are not touched.',
  ].join(' '),
  input: deleteInput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(a: z.infer<typeof deleteInput>, ctx) {
    actorOf(ctx, 'lithos_edge_delete');
    // An edge between notes the caller may not see is not found, as everywhere.
    const e = requireEdge(ctx, a.edge_id);
    await ctx.engine.memory.deleteEdge(e.edge_id);
    await ctx.engine.audit.append({ action: 'edge.delete', actor: auditActorOf(ctx), target: e.edge_id, data: { from: e.from_id, to: e.to_id, type: e.type, weight: e.weight, namespace: e.namespace, conflict_state: e.conflict_state } });
    return { deleted: { edge_id: e.edge_id, from_id: e.from_id, to_id: e.to_id, type: e.type } };
  },
});
