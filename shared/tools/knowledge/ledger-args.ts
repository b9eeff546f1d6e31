/**
 * The ledger fields lithos_write accepts (docs/ledger.md), spread into its input, and their translation to
 * the NoteFields the writer stores in frontmatter. Whether they fit the note's kind and its rules is judged
 * by the session before anything is written (session/ledger-writes.ts).
 */
import { z } from 'zod';
import { EVIDENCE_STANCES, LEDGER_KINDS, LEDGER_STATES, type LedgerState } from '../../model/ledger';
import type { LedgerFields } from '../../model/ledger-meta';

const STATES = [...new Set(LEDGER_KINDS.flatMap((k) => LEDGER_STATES[k] as readonly LedgerState[]))] as [LedgerState, ...LedgerState[]];
const text = (what: string) => z.string().trim().min(1).max(2000).nullable().optional().describe(`${what} null clears it.`);
const ref = z.string().trim().min(1).max(500);

export const ledgerShape = {
  state: z
    .enum(STATES)
    .optional()
    .describe('Ledger kinds: decision active|superseded|deprecated|aborted; claim unverified|believed|contested|refuted; workflow current|superseded|merged; construct active|dead|evolved.'),
  target: text('decision: what it decides about, e.g. "auth-service/session-store".'),
  rationale: text('decision: why.'),
  evidence: z
    .array(z.union([ref, z.strictObject({ ref, stance: z.enum(EVIDENCE_STANCES).optional() })]))
    .max(100)
    .optional()
    .describe('claim: the whole evidence chain (replaces the one stored). Each a link, path, ID, receipt or event id; plain refs support.'),
  context: text('workflow: the problem it addresses.'),
  trigger: text('workflow: when it applies.'),
  method: text('workflow: how it is done.'),
  code: z.array(z.string().trim().min(1).max(500)).max(100).optional().describe('construct: code pointers (paths, URLs, symbols).'),
  modifiers: z.array(z.string().trim().min(1).max(60)).max(20).optional().describe('e.g. "has debt".'),
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
