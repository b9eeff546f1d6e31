import { z } from 'zod';
import { checkConflictEdgeUpdate } from '../conflicts/common';
import { defineTool } from './common';
import { conflictState, edgeJson, edgeType, evidence, weight } from './edge-common';

const updateInput = z
  .strictObject({
    edge_id: z.string().min(1),
    type: edgeType.optional(),
    weight: weight.optional(),
    namespace: z.string().min(1).optional(),
    evidence,
    conflict_state: conflictState,
  })
  .refine((a) => a.type !== undefined || a.weight !== undefined || a.namespace !== undefined || a.evidence !== undefined || a.conflict_state !== undefined, 'Give at least one field to change (type, weight, namespace, evidence, conflict_state).');

export const lithosEdgeUpdate = defineTool({
  name: 'lithos_edge_update',
  title: 'Update a typed edge',
  description: 'Change an existing edge by edge_id: its weight (e.g. weaken a relation that proved wrong), type, evidence or conflict_state. Fields you omit are kept; you become its provenance actor.',
  input: updateInput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(a: z.infer<typeof updateInput>, ctx) {
    ctx.memory.scope.actor('lithos_edge_update'); // who changes it is asked first, before anything about the edge
    const e = ctx.memory.edges.get(a.edge_id);
    checkConflictEdgeUpdate(e, a);
    const { row } = await ctx.memory.edges.upsert(
      {
        edge_id: e.edge_id,
        from_id: e.from_id,
        to_id: e.to_id,
        type: a.type ?? e.type,
        weight: a.weight ?? e.weight,
        namespace: a.namespace ?? e.namespace,
        evidence: a.evidence !== undefined ? a.evidence : e.evidence,
        conflict_state: a.conflict_state !== undefined ? a.conflict_state : e.conflict_state,
      },
      'lithos_edge_update',
    );
    return { edge: edgeJson(ctx, row) };
  },
});
