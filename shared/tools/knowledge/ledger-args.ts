/**
 * The ledger fields lithos_write accepts (docs/ledger.md), spread into its input, and their translation to
 * the NoteFields the writer stores in frontmatter. Whether they fit the note's kind and its rules is judged
 * by the session before anything is written (session/ledger-writes.ts).
 */
import { z } from 'zod';
import { EVIDENCE_STANCES, LEDGER_KINDS, LEDGER_STATES, type LedgerState } from '../../model/ledger';
import type { LedgerFields } from '../../model/ledger-meta';

const STATES = [...new Set(LEDGER_KINDS.flatMap((k) => LEDGER_STATES[k] as readonly LedgerState[]))] as [LedgerState, ...LedgerState[]];
// Every byte here sits in each agent's context (tools/list): descriptions only where the name is not enough;
// the kind rules' refusals say the rest (which states, which fields). The note's size bounds the values.
const text = z.string().trim().min(1);

export const ledgerShape = {
  state: z.enum(STATES).optional(),
  target: text.optional().describe('decision: what it decides about'),
  rationale: text.optional(),
  evidence: z
    .array(z.union([text, z.strictObject({ ref: text, stance: z.enum(EVIDENCE_STANCES).optional() })]))
    .optional()
    .describe('claim: refs; a plain one supports'),
  context: text.optional(),
  trigger: text.optional(),
  method: text.optional(),
  code: z.array(text).optional().describe('construct: paths, URLs, symbols'),
  modifiers: z.array(text).optional(),
};

type LedgerArgs = { [K in keyof typeof ledgerShape]?: z.infer<(typeof ledgerShape)[K]> };

/** The fields as stored: evidence as {ref, stance} mappings, modifiers in lower case. */
export function ledgerFields(a: LedgerArgs): LedgerFields {
  return {
    state: a.state,
    target: a.target,
    rationale: a.rationale,
    evidence: a.evidence?.map((e) => (typeof e === 'string' ? { ref: e, stance: 'supports' as const } : { ref: e.ref, stance: e.stance ?? 'supports' })),
    context: a.context,
    trigger: a.trigger,
    method: a.method,
    code: a.code === undefined ? undefined : [...new Set(a.code)],
    modifiers: a.modifiers === undefined ? undefined : [...new Set(a.modifiers.map((m) => m.replace(/\s+/g, ' ').toLowerCase()))],
  };
}
