/**
 * The knowledge ledger's kinds (docs/ledger.md). Four note types carry knowledge that must stay true as the
 * memory grows: a `decision` about a target, a `claim` with evidence, a `workflow`, and a `construct` (a
 * construct of the code, with liveness). LCMA `concept` notes are something else: clusters consolidation
 * forms from notes used together.
 *
 * Each kind keeps its own state field, so liveness and validity never mix: a claim is never "dead", a
 * construct never "refuted". Frontmatter holds the state in lower case; panels show it in capitals.
 */

export const LEDGER_KINDS = ['decision', 'claim', 'workflow', 'construct'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** The prefix of each kind's stable ID (`D012`, `E007`, `W003`, `C021`). */
export const LEDGER_PREFIX: Record<LedgerKind, string> = { decision: 'D', claim: 'E', workflow: 'W', construct: 'C' };

/** States per kind; the first is the state of a new entry. */
export const LEDGER_STATES = {
  decision: ['active', 'superseded', 'deprecated', 'aborted'],
  claim: ['unverified', 'believed', 'contested', 'refuted'],
  workflow: ['current', 'superseded', 'merged'],
  construct: ['active', 'dead', 'evolved'],
} as const satisfies Record<LedgerKind, readonly string[]>;
export type LedgerState<K extends LedgerKind = LedgerKind> = (typeof LEDGER_STATES)[K][number];

/** Resolution intents a write may carry to replace an active decision (LedgerMind). */
export const INTENT_TYPES = ['supersede', 'deprecate', 'abort'] as const;
export type IntentType = (typeof INTENT_TYPES)[number];

/** Knowledge phases and vitality (LedgerMind); computed from use, kept in memory.sqlite, not in frontmatter. */
export const PHASES = ['pattern', 'emergent', 'canonical'] as const;
export type Phase = (typeof PHASES)[number];
export const VITALITIES = ['active', 'decaying', 'dormant'] as const;
export type Vitality = (typeof VITALITIES)[number];

export const EVIDENCE_STANCES = ['supports', 'refutes'] as const;
export type EvidenceStance = (typeof EVIDENCE_STANCES)[number];

/** One link of a claim's evidence chain: a note (link, path, ID or UUID), a receipt id or an event id. */
export interface Evidence {
  ref: string;
  stance: EvidenceStance;
}

/** Frontmatter field names of the ledger (one place, so readers and writers agree). */
export const LEDGER_FIELDS = {
  ledgerId: 'ledger_id',
  state: 'state',
  target: 'target',
  rationale: 'rationale',
  evidence: 'evidence',
  context: 'context',
  trigger: 'trigger',
  method: 'method',
  code: 'code',
  modifiers: 'modifiers',
  supersededBy: 'superseded_by',
} as const;

export function isLedgerKind(type: string): type is LedgerKind {
  return (LEDGER_KINDS as readonly string[]).includes(type);
}
