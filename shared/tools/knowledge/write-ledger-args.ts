/** lithos_write's ledger arguments (docs/ledger.md → Targets and intents), kept apart so write.ts gains two lines. */
import { z } from 'zod';
import { INTENT_TYPES } from '../../model/ledger';
import { TARGET_MAX_CHARS } from '../../ledger/target-names';

export const LEDGER_WRITE_ARGS = {
  target: z.string().trim().min(1).max(TARGET_MAX_CHARS).optional().describe('What a decision is about, e.g. "auth-service".'),
  intent: z
    .strictObject({
      type: z.enum(INTENT_TYPES),
      replaces: z.array(z.string().trim().min(1)).min(1).max(50).describe('Their ledger IDs or ids.'),
    })
    .optional()
    .describe('Replace the active decisions on the target.'),
};
