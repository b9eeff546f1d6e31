import { z } from 'zod';
import { TIMELINE_DETAIL_WEEKS } from '../../ledger/timeline';
import { READ_ONLY, defineTool } from '../knowledge/common';

const input = z.strictObject({
  before: z.string().max(10).optional().describe('An ISO week such as "2026-W40" (next_cursor): the weeks before it, in full'),
  weeks: z.number().int().min(1).max(TIMELINE_DETAIL_WEEKS).optional().describe(`Weeks per page (default ${TIMELINE_DETAIL_WEEKS})`),
});

export const lithosTimeline = defineTool({
  name: 'lithos_timeline',
  title: 'Timeline',
  description: `What happened to the ledger by ISO week, newest first: entries recorded, decisions retired, claims refuted, graveyard burials, conflicts. Without arguments: the last ${TIMELINE_DETAIL_WEEKS} weeks in full and older weeks counted; with before/weeks: those weeks in full. Only notes you can read.`,
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    if (a.before === undefined && a.weeks === undefined) {
      const { text, next_cursor } = await ctx.memory.timeline.overview();
      return { timeline: text, lines: text.split('\n').length - 1, next_cursor };
    }
    const page = await ctx.memory.timeline.page(a);
    return { timeline: page.text, lines: page.text.split('\n').length - 1, next_cursor: page.next_cursor };
  },
});
