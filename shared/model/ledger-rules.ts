/**
 * The rules each ledger kind keeps (docs/ledger.md), in one table, and the state transitions each kind
 * allows, in another. `lithos doctor` lists every broken rule of every note (parseNote records them as
 * problems); an agent's write that would break one, or make a transition the table forbids, is refused
 * (session/ledger-writes.ts). A person editing in Obsidian is never blocked: doctor reports instead.
 */
import { LEDGER_FIELDS, LEDGER_KINDS, LEDGER_STATES, type LedgerKind, type LedgerState } from './ledger';
import { stateOf, type LedgerMeta } from './ledger-meta';
import type { NoteHeading, NoteLink, NoteProblem } from './types';

/** What a rule sees of a note: its ledger fields, raw frontmatter (the state as written) and body. */
export interface LedgerEntry {
  path: string;
  ledger: LedgerMeta;
  frontmatter: Record<string, unknown>;
  body: string;
  headings: readonly NoteHeading[];
  links: readonly NoteLink[];
}

/**
 * `required`: doctor reports `kind_rule` and an agent's write is refused. `expected`: doctor reports
 * `kind_advice`; nothing is refused (a person may record a decision before its rationale is written).
 */
export type RuleLevel = 'required' | 'expected';

export interface KindRule {
  id: string;
  kinds: readonly LedgerKind[];
  level: RuleLevel;
  /** The frontmatter field a fix goes into. */
  field: string;
  /** Null when the entry keeps the rule, else what is wrong (one sentence). */
  broken(e: LedgerEntry): string | null;
  /** How to fix it. */
  fix: string;
}

/** The fields of each kind; `state` and `modifiers` belong to every kind. An agent's write of another kind's field is refused. */
export const KIND_FIELDS: Record<LedgerKind, readonly string[]> = {
  decision: [LEDGER_FIELDS.target, LEDGER_FIELDS.rationale],
  claim: [LEDGER_FIELDS.evidence],
  workflow: [LEDGER_FIELDS.context, LEDGER_FIELDS.trigger, LEDGER_FIELDS.method],
  construct: [LEDGER_FIELDS.code],
};
export const EVERY_KIND_FIELDS: readonly string[] = [LEDGER_FIELDS.state, LEDGER_FIELDS.modifiers];

/** A dead or evolved construct is a stub: at most this many non-empty body lines (heading, state, pointer). */
export const STUB_MAX_LINES = 3;

const F = LEDGER_FIELDS;
const ALL = LEDGER_KINDS;
const has = (s: string | null): boolean => s !== null && s.trim() !== '';
const RATIONALE_HEADING = /^(rationale|why)\b/i;

function kindOfState(word: string): LedgerKind[] {
  return ALL.filter((k) => stateOf(k, word) !== null);
}

export const KIND_RULES: readonly KindRule[] = [
  {
    // Liveness and validity never mix: a claim is never "dead", a construct never "refuted".
    id: 'state-of-kind',
    kinds: ALL,
    level: 'required',
    field: F.state,
    broken: (e) => {
      const raw = e.frontmatter[F.state];
      if (raw === undefined || raw === null || stateOf(e.ledger.kind, raw) !== null) return null;
      if (typeof raw !== 'string') return `A ${e.ledger.kind}'s state is a word; found ${Array.isArray(raw) ? 'a list' : typeof raw}.`;
      const word = raw.trim().toLowerCase();
      const owners = kindOfState(word);
      if (owners.length === 0) return `"${raw.trim()}" is not a state of any ledger kind.`;
      return `"${word}" is a state of a ${owners.join(' or ')}, not of a ${e.ledger.kind}: ${kindWords(e.ledger.kind)}.`;
    },
    fix: 'Set state to one of the kind\'s own states (docs/ledger.md).',
  },
  {
    id: 'decision-target',
    kinds: ['decision'],
    level: 'required',
    field: F.target,
    broken: (e) => (has(e.ledger.target) ? null : 'A decision needs the target it decides about.'),
    fix: 'Set target, e.g. "auth-service/session-store".',
  },
  {
    id: 'decision-rationale',
    kinds: ['decision'],
    level: 'expected',
    field: F.rationale,
    // Only while it stands: a retired decision's reasons are history (in the graveyard once its text is buried).
    broken: (e) => (e.ledger.state !== 'active' || has(e.ledger.rationale) || e.headings.some((h) => RATIONALE_HEADING.test(h.text.trim())) ? null : 'A decision is expected to say why.'),
    fix: 'Set rationale, or write a "Rationale" section.',
  },
  {
    id: 'claim-evidence',
    kinds: ['claim'],
    level: 'required',
    field: F.evidence,
    broken: (e) => (e.ledger.evidence.length > 0 ? null : 'A claim needs an evidence chain: without one it is not a claim.'),
    fix: 'Add evidence: refs (links, paths, IDs, receipt or event ids), each plain (supports) or {ref, stance: supports|refutes}.',
  },
  {
    id: 'refuted-claim-refutes',
    kinds: ['claim'],
    level: 'required',
    field: F.evidence,
    broken: (e) => (e.ledger.state !== 'refuted' || e.ledger.evidence.some((x) => x.stance === 'refutes') ? null : 'A refuted claim needs the evidence that refutes it.'),
    fix: 'Add an evidence item {ref, stance: refutes}.',
  },
  {
    id: 'workflow-context',
    kinds: ['workflow'],
    level: 'required',
    field: F.context,
    broken: (e) => (has(e.ledger.context) ? null : 'A workflow needs its context: the problem it addresses.'),
    fix: 'Set context.',
  },
  {
    id: 'workflow-trigger-or-method',
    kinds: ['workflow'],
    level: 'required',
    field: F.trigger,
    broken: (e) => (has(e.ledger.trigger) || has(e.ledger.method) ? null : 'A workflow needs a trigger (when it applies) or a method (how it works).'),
    fix: 'Set trigger or method.',
  },
  {
    // A construct without a code pointer is not a construct. Once dead or evolved, its code may be gone.
    id: 'construct-code',
    kinds: ['construct'],
    level: 'required',
    field: F.code,
    broken: (e) => (e.ledger.state !== 'active' || e.ledger.code.length > 0 ? null : 'An active construct needs code pointers.'),
    fix: 'Set code: paths, URLs or symbols (e.g. "src/auth/session.ts", "SessionStore.get").',
  },
  {
    id: 'construct-stub',
    kinds: ['construct'],
    level: 'required',
    field: F.state,
    broken: (e) => {
      if (e.ledger.state === 'active') return null;
      const lines = nonEmptyLines(e.body);
      return lines <= STUB_MAX_LINES ? null : `A ${e.ledger.state} construct is kept as a stub of at most ${STUB_MAX_LINES} non-empty lines; this one has ${lines}.`;
    },
    fix: 'Cut the body to a heading, the state and a pointer (e.g. "Evolved into [[C089]]"); keep the full text in another note.',
  },
  {
    id: 'successor',
    kinds: ['workflow', 'construct'],
    level: 'expected',
    field: F.supersededBy,
    broken: (e) => {
      const gone = e.ledger.kind === 'workflow' ? e.ledger.state !== 'current' : e.ledger.state === 'evolved';
      // A plain ID in a heading names the entry itself (Engram's stub "## C012 (EVOLVED)"), not its successor.
      const headingLines = new Set(e.headings.map((h) => h.line));
      const pointer = e.links.some((l) => l.property === undefined && !(l.kind === 'ledger' && headingLines.has(l.line)));
      if (!gone || e.ledger.superseded_by.length > 0 || pointer) return null;
      return `A ${e.ledger.state} ${e.ledger.kind} is expected to point at what replaced it.`;
    },
    fix: 'Set superseded_by, or link the successor in the body.',
  },
];

/** Each broken rule of an entry, in table order. */
export function brokenRules(e: LedgerEntry): { rule: KindRule; message: string }[] {
  const out: { rule: KindRule; message: string }[] = [];
  for (const rule of KIND_RULES) {
    if (!rule.kinds.includes(e.ledger.kind)) continue;
    const message = rule.broken(e);
    if (message !== null) out.push({ rule, message });
  }
  return out;
}

/** The broken rules as the note problems doctor lists. */
export function kindProblems(e: LedgerEntry): NoteProblem[] {
  return brokenRules(e).map(({ rule, message }) => ({
    path: e.path,
    code: rule.level === 'required' ? 'kind_rule' : 'kind_advice',
    field: rule.field,
    message: `${message} ${rule.fix}`,
  }));
}

function nonEmptyLines(body: string): number {
  let n = 0;
  for (const line of body.split('\n')) if (line.trim() !== '') n++;
  return n;
}

function kindWords(kind: LedgerKind): string {
  const what = { decision: 'its status', claim: 'its validity', workflow: 'its currency', construct: 'its liveness' }[kind];
  return `${what} is one of ${LEDGER_STATES[kind].join(', ')}`;
}

/**
 * The transitions each kind allows (a state to itself is no transition). Terminal states are replaced by a
 * new entry, not revived: a dead construct never becomes active again, a superseded decision never active.
 * Dead ↔ evolved corrects a misclassified construct (Engram's correction block).
 */
export const LEDGER_TRANSITIONS: { [K in LedgerKind]: Record<LedgerState<K>, readonly LedgerState<K>[]> } = {
  decision: { active: ['superseded', 'deprecated', 'aborted'], superseded: [], deprecated: [], aborted: [] },
  claim: { unverified: ['believed', 'contested', 'refuted'], believed: ['contested', 'refuted'], contested: ['believed', 'refuted'], refuted: ['contested'] },
  workflow: { current: ['superseded', 'merged'], superseded: [], merged: [] },
  construct: { active: ['dead', 'evolved'], dead: ['evolved'], evolved: ['dead'] },
};

/** Why an entry may not move from `before` to `after` (same kind), with how to proceed; null when it may. */
export function transitionRefusal(before: LedgerMeta, after: LedgerMeta): string | null {
  const kind = after.kind;
  if (before.kind !== kind || before.state === after.state) return null;
  const next = (LEDGER_TRANSITIONS[kind] as Record<string, readonly string[]>)[before.state] ?? [];
  if (!next.includes(after.state)) {
    const allowed = next.length ? `From ${before.state} a ${kind} may become ${next.join(' or ')}.` : `${cap(before.state)} is final for a ${kind}.`;
    const instead = kind === 'construct' || kind === 'decision' || kind === 'workflow' ? ` Record a new ${kind} instead (it may name this one).` : '';
    return `A ${kind} cannot go from ${before.state} to ${after.state}. ${allowed}${instead}`;
  }
  if (kind === 'claim' && before.state === 'refuted') {
    // Reopening a refuted claim takes evidence the refutation did not already weigh.
    const known = new Set(before.evidence.map((x) => `${x.stance}\u0000${x.ref}`));
    if (!after.evidence.some((x) => !known.has(`${x.stance}\u0000${x.ref}`))) {
      return 'A refuted claim goes back to contested only with new evidence. Add the new evidence item(s) to evidence in the same write.';
    }
  }
  return null;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
