import { z } from 'zod';
import { quarantinedNotes } from '../../learning/quarantine';
import { READ_ONLY, allowFor, defineTool } from '../knowledge/common';

const input = z.strictObject({
  limit: z.number().int().min(1).max(500).optional().describe('Most notes to return (default 100).'),
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
    const all = quarantinedNotes(ctx.engine, allowFor(ctx));
    return Promise.resolve({ notes: all.slice(0, a.limit ?? 100), total: all.length });
  },
});
