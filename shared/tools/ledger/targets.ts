import { z } from 'zod';
import { LithosError } from '../../errors';
import { TARGET_MAX_CHARS } from '../../ledger/target-names';
import { READ_ONLY, defineTool } from '../knowledge/common';
import { listShape, pageItems } from '../text-budget';

const name = z.string().trim().min(1).max(TARGET_MAX_CHARS);

const input = z
  .strictObject({
    suggest: name.optional().describe('A target name: the existing targets it probably means.'),
    history: name.optional().describe('A target: its decisions, oldest first.'),
    ...listShape(50, 500),
  })
  .refine((a) => !(a.suggest !== undefined && a.history !== undefined), { message: 'Give suggest or history, not both.', path: ['history'] });

export const lithosTargets = defineTool({
  name: 'lithos_targets',
  title: 'Decision targets',
  description:
    'The targets decisions are about, with counts of active decisions. suggest: existing targets a name probably means (check before writing a decision). history: a target\'s decisions in order, with states and intents.',
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const targets = ctx.memory.targets;
    if (a.suggest !== undefined) {
      const r = await targets.suggest(a.suggest, Math.min(a.limit, 20));
      return { name: a.suggest, key: r.key, suggestions: r.suggestions };
    }
    if (a.history !== undefined) {
      const h = await targets.history(a.history);
      if (h.decisions.length === 0) {
        throw new LithosError('not_found', `No decision you can see has the target "${a.history}" (key "${h.target}"). Use lithos_targets with suggest to find close ones.`, { target: h.target });
      }
      const { page, total, next_cursor } = pageItems(h.decisions, a, 'lithos_targets');
      return { target: h.target, decisions: page, total, next_cursor };
    }
    const { page, total, next_cursor } = pageItems(await targets.list(), a, 'lithos_targets');
    return { targets: page, total, next_cursor };
  },
});
