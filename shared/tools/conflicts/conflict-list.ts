import { z } from 'zod';
import { CONFLICT_STATES } from '../../conflicts/conflict-types';
import { READ_ONLY, defineTool } from '../knowledge/common';
import { conflictJson } from './common';
import { cursorOf, cursorStarts, takePage, cursorArg } from '../text-budget';

const input = z.strictObject({
  state: z.enum(CONFLICT_STATES).optional().describe('unreviewed: still to settle.'),
  node: z.string().min(1).optional().describe('A note (id or path) involved.'),
  limit: z.number().int().min(1).max(1000).default(100),
  cursor: cursorArg,
});

export const lithosConflictList = defineTool({
  name: 'lithos_conflict_list',
  title: 'List conflicts between notes',
  description:
    'Contradictions between notes, oldest first: edge_id, state, both notes, the evidence and who opened it.',
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const conflicts = ctx.memory.conflicts.list({ state: a.state, node: a.node }).flatMap((c) => {
      const j = conflictJson(ctx, c);
      return j ? [j] : [];
    });
    const [start] = cursorStarts(a.cursor, 1, 'lithos_conflict_list');
    const { page, next } = takePage(conflicts, start, a.limit);
    return { conflicts: page, total: conflicts.length, next_cursor: cursorOf([next]) };
  },
});
