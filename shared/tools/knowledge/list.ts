import { z } from 'zod';
import { isIsoTime } from '../coordination/common';
import { LithosError } from '../../errors';
import { compileFilters } from '../../index/filters';
import type { LiveNote } from '../../vault/note-indexer';
import { takePage, cursorArg } from '../text-budget';
import { READ_ONLY, defineTool, filterShape, noteSummary, toFilters } from './common';

const input = z.strictObject({
  ...filterShape,
  author: z.string().min(1).optional().describe('Author agent id.'),
  since: z
    .string()
    .refine(isIsoTime, 'must be an ISO 8601 date or a date-time with its offset, e.g. "2024-05-01" or "2024-05-01T12:00:00Z"')
    .optional()
    .describe('Updated at or after this ISO time.'),
  limit: z.number().int().min(1).max(200).default(50).describe('Page size.'),
  cursor: cursorArg,
});

const CURSOR_PREFIX = 'after:';

/** When a note last changed, for `since`: what its frontmatter says, else the file's mtime. */
function changedAt(n: LiveNote): number {
  const t = Date.parse(n.cached.meta.updated_at ?? n.cached.meta.created_at ?? '');
  return Number.isFinite(t) ? t : n.mtime;
}

export const lithosList = defineTool({
  name: 'lithos_list',
  title: 'List notes',
  description: [
    'Browse notes by metadata, no query: ordered by path, paged with limit and next_cursor (a namespace, an author\'s notes).',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    let after = '';
    if (a.cursor !== undefined) {
      if (!a.cursor.startsWith(CURSOR_PREFIX)) throw new LithosError('invalid_argument', 'cursor is not one lithos_list returned; pass next_cursor unchanged.', { field: 'cursor' });
      try {
        after = decodeURIComponent(a.cursor.slice(CURSOR_PREFIX.length));
      } catch {
        throw new LithosError('invalid_argument', 'cursor is damaged; pass next_cursor unchanged.', { field: 'cursor' });
      }
    }
    const accept = compileFilters(toFilters(a));
    const since = a.since !== undefined ? Date.parse(a.since) : null;
    const matches = ctx.memory.notes
      .all()
      .filter((n) => {
        const m = n.cached.meta;
        if (!accept({ path: n.path, namespace: m.namespace, note_type: m.note_type, status: m.status, tags: m.tags })) return false;
        if (a.author !== undefined && m.author !== a.author) return false;
        return since === null || changedAt(n) >= since;
      })
      .sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
    const start = after === '' ? 0 : matches.findIndex((n) => n.path > after);
    const { page } = takePage(start === -1 ? [] : matches.slice(start, start + a.limit).map(noteSummary), 0, a.limit);
    const more = start !== -1 && start + page.length < matches.length;
    return {
      notes: page,
      total: matches.length,
      next_cursor: more ? CURSOR_PREFIX + encodeURIComponent(String(page[page.length - 1].path)) : null,
    };
  },
});
