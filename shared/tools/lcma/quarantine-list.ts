import { z } from 'zod';
import { READ_ONLY, defineTool } from '../knowledge/common';
import { cursorOf, cursorStarts, takePage } from '../text-budget';

const input = z.strictObject({
  limit: z.number().int().min(1).max(500).optional().describe('Most notes to return (default 100).'),
  cursor: z.string().min(1).optional().describe('next_cursor of the previous page.'),
});

export const lithosQuarantineList = defineTool({
  name: 'lithos_quarantine_list',
  title: 'Quarantined notes to review',
  description: [
    'Notes memory quarantined because agents marked them misleading 3 times (frontmatter status: quarantined). Retrieval hides them by default.',
    'Review each: fix the note and set its status back to active, or archive or delete it. Read-only.',
    'Returns {notes:[{id, path, title, note_type, namespace, misleading_count, salience}], total}, most misleading first.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  handler(a: z.infer<typeof input>, ctx) {
    const all = ctx.memory.learning.quarantined();
    const [start] = cursorStarts(a.cursor, 1, 'lithos_quarantine_list');
    const { page, next } = takePage(all, start, a.limit ?? 100);
    return Promise.resolve({ notes: page, total: all.length, next_cursor: cursorOf([next]) });
  },
});
