import { z } from 'zod';
import { BRIEFING_MAX_LINES } from '../../ledger/briefing';
import { READ_ONLY, defineTool } from '../knowledge/common';

const input = z.strictObject({});

export const lithosBriefing = defineTool({
  name: 'lithos_briefing',
  title: 'Briefing',
  description: `Read at session start: decisions in force by target, what is dead or refuted (don't repeat), contested claims, open conflicts, drift alerts. Markdown, at most ${BRIEFING_MAX_LINES} lines, only notes you can read.`,
  input,
  annotations: READ_ONLY,
  async handler(_a: z.infer<typeof input>, ctx) {
    const text = await ctx.memory.briefing.text();
    return { briefing: text, lines: text.split('\n').length - 1 };
  },
});
