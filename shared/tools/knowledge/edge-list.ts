import { z } from 'zod';
import type { EdgeRow } from '../../stores/memory-store';
import { READ_ONLY, defineTool } from './common';
import { edgeJson, edgeType } from './edge-common';
import { cursorStarts, cursorOf, takePage, cursorArg } from '../text-budget';

const listInput = z.strictObject({
  node: z.string().min(1).optional().describe('Only edges touching this note (id or vault path).'),
  direction: z.enum(['out', 'in', 'both']).default('both').describe('With node: edges from it (out), to it (in), or both.'),
  type: edgeType.optional(),
  namespace: z.string().min(1).optional(),
  limit: z.number().int().min(1).max(1000).default(100),
  cursor: cursorArg,
});

export const lithosEdgeList = defineTool({
  name: 'lithos_edge_list',
  title: 'List typed edges',
  description: 'Typed edges in the learned memory, optionally of one note, one type or one namespace, oldest first, with both ends as id, path and title. Use lithos_links for wiki-links written in the notes.',
  input: listInput,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof listInput>, ctx) {
    const q = { type: a.type, namespace: a.namespace };
    let rows: EdgeRow[];
    if (a.node !== undefined) {
      const n = ctx.memory.notes.findByIdOrPath(a.node);
      rows = [...(a.direction !== 'in' ? ctx.memory.edges.find({ ...q, from: n.nodeId }) : []), ...(a.direction !== 'out' ? ctx.memory.edges.find({ ...q, to: n.nodeId }) : [])];
    } else {
      rows = ctx.memory.edges.find(q);
    }
    const seen = new Set<string>();
    const edges = rows.flatMap((e) => {
      if (seen.has(e.edge_id)) return [];
      seen.add(e.edge_id);
      const j = edgeJson(ctx, e);
      return j ? [j] : [];
    });
    const [start] = cursorStarts(a.cursor, 1, 'lithos_edge_list');
    const { page, next } = takePage(edges, start, a.limit);
    return { edges: page, total: edges.length, next_cursor: cursorOf([next]) };
  },
});

