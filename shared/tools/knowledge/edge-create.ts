import { z } from 'zod';
import { openConflictAsEdge } from '../conflicts/common';
import { LithosError } from '../../errors';
import { defineTool } from './common';
import { conflictState, edgeJson, edgeType, evidence, weight } from './edge-common';

const createInput = z.strictObject({
  from: z.string().min(1).describe('Source note: id or vault path.'),
  to: z.string().min(1).describe('Target note: id or vault path.'),
  type: edgeType,
  weight: weight.optional().describe('0..1; default 0.5 for a new edge, and an existing edge keeps its weight when omitted.'),
  namespace: z.string().min(1).optional().describe("Namespace the edge belongs to; default the source note's."),
  evidence,
  conflict_state: conflictState,
});

export const lithosEdgeCreate = defineTool({
  name: 'lithos_edge_create',
  title: 'Create or update a typed edge',
  description: [
    'Record a typed, weighted relation between two notes (e.g. A supports B, A contradicts B, A depends_on B) in the learned memory, not in the Markdown.',
    'Upsert: the same (from, to, type) updates the existing edge (evidence and conflict_state you omit are kept). Edges feed lithos_related and lithos_retrieve. Use a wiki-link in the note instead when a person should see the connection.',
  ].join(' '),
  input: createInput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(a: z.infer<typeof createInput>, ctx) {
    if (a.type === 'contradicts') return openConflictAsEdge(ctx, a); // the same conflict object as lithos_conflict_open
    ctx.memory.scope.actor('lithos_edge_create'); // who links is asked first, before anything about the notes
    const from = ctx.memory.notes.findByIdOrPath(a.from);
    const to = ctx.memory.notes.findByIdOrPath(a.to);
    if (from.nodeId === to.nodeId) throw new LithosError('invalid_argument', 'An edge needs two different notes.', { field: 'to' });
    const existing = ctx.memory.edges.find({ from: from.nodeId, to: to.nodeId, type: a.type })[0];
    const { row } = await ctx.memory.edges.upsert(
      {
        from_id: from.nodeId,
        to_id: to.nodeId,
        type: a.type,
        weight: a.weight ?? existing?.weight ?? 0.5,
        namespace: a.namespace ?? from.cached.meta.namespace,
        // Upserting an existing edge keeps what the caller does not restate (the weight above too).
        evidence: a.evidence !== undefined ? a.evidence : (existing?.evidence ?? null),
        conflict_state: a.conflict_state !== undefined ? a.conflict_state : (existing?.conflict_state ?? null),
      },
      'lithos_edge_create',
    );
    return { edge: edgeJson(ctx, row), created: !existing };
  },
});

