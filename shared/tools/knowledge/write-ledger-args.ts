/** lithos_write's ledger arguments (docs/ledger.md → Targets and intents), kept apart so write.ts gains two lines. */
import { z } from 'zod';
import { INTENT_TYPES } from '../../model/ledger';
import { TARGET_MAX_CHARS } from '../../ledger/target-names';

export const LEDGER_WRITE_ARGS = {
  target: z.string().trim().min(1).max(TARGET_MAX_CHARS).optional().describe('A decision\'s subject, e.g. "auth-service/session-store" (lithos_targets lists them).'),
  intent: z
    .strictObject({
      type: z.enum(INTENT_TYPES),
      replaces: z.array(z.string().trim().min(1)).min(1).max(50).describe('Ledger IDs or ids of the active decisions it replaces.'),
    })
    .optional()
    .describe('A decision on a target that has an active one: supersede, deprecate or abort it.'),
};
