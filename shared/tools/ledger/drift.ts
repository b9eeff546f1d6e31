import { z } from 'zod';
import { DRIFT_KINDS } from '../../learning/drift';
import { READ_ONLY, defineTool } from '../knowledge/common';
import { listShape, pageItems } from '../text-budget';

const input = z.strictObject({
  kinds: z.array(z.enum(DRIFT_KINDS)).min(1).max(DRIFT_KINDS.length).optional().describe('Only these alert kinds.'),
  ...listShape(20, 100),
});

export const lithosDrift = defineTool({
  name: 'lithos_drift',
  title: 'Drift triage',
  description:
    'Stale ledger entries, most urgent first: contested or unverified claims past their threshold, dormant canonical decisions, unreviewed conflicts, orphaned entries, ID references that name no entry. Each with its age, threshold and what to do. Read-only.',
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const all = await ctx.memory.drift.alerts();
    const alerts = a.kinds ? all.filter((x) => a.kinds!.includes(x.kind)) : all;
    const { page, total, next_cursor } = pageItems(alerts, a, 'lithos_drift');
    return { alerts: page, total, next_cursor };
  },
});
