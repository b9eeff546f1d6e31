import { z } from 'zod';
import { defineTool } from '../knowledge/common';
import { openConflictFor } from './common';

const input = z.strictObject({
  a: z.string().min(1).describe('One note: id or vault path.'),
  b: z.string().min(1).describe('The note it disagrees with: id or vault path.'),
  evidence: z.unknown().optional().describe('Why they disagree: a sentence, or any JSON (quotes from both notes, a receipt id).'),
});

export const lithosConflictOpen = defineTool({
  name: 'lithos_conflict_open',
  title: 'Open a conflict between two notes',
  description: [
    'Record that two notes contradict each other, so a person or agent settles it later. The conflict starts unreviewed: both notes get a callout naming the other, and retrieval for design, decision, synthesis and debug work lists it.',
    'A pair that already has a conflict (either direction, any state) is returned as is with created=false. Settle it with lithos_conflict_resolve; list them with lithos_conflict_list.',
  ].join(' '),
  input,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler(a: z.infer<typeof input>, ctx) {
    return openConflictFor(ctx, 'lithos_conflict_open', { from: a.a, to: a.b, evidence: a.evidence });
  },
});
