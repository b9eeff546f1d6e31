import { parseNote } from '../../shared/model/note';
import { parseLedgerMeta } from '../../shared/model/ledger-meta';
import { KIND_RULES, LEDGER_TRANSITIONS, STUB_MAX_LINES, transitionRefusal } from '../../shared/model/ledger-rules';
import { LEDGER_KINDS, LEDGER_STATES, type LedgerKind } from '../../shared/model/ledger';
import type { ParsedNote } from '../../shared/model/types';

function note(fm: Record<string, string>, body = '# Entry\nText.\n'): ParsedNote {
  const yaml = Object.entries(fm).map(([k, v]) => `${k}: ${v}`).join('\n');
  return parseNote('ledger/Entry.md', `---\n${yaml}\n---\n${body}`);
}

/** [code, field] of each kind-rule problem. */
function kindProblems(n: ParsedNote): [string, string | undefined][] {
  return n.problems.filter((p) => p.code === 'kind_rule' || p.code === 'kind_advice').map((p) => [p.code, p.field]);
}

/** A complete entry of each kind: it breaks no rule. */
const COMPLETE: Record<LedgerKind, Record<string, string>> = {
  decision: { note_type: 'decision', target: 'auth-service/session-store', rationale: 'Sessions must survive a restart.' },
  claim: { note_type: 'claim', evidence: '["[[Backtest 1404]]"]' },
  workflow: { note_type: 'workflow', context: 'How agents investigate bugs', method: 'Trace against real data' },
  construct: { note_type: 'construct', code: '[src/auth/session.ts]' },
};

const LONG_BODY = '# C012 proximity pruning\n' + Array.from({ length: STUB_MAX_LINES + 2 }, (_, i) => `Line ${i + 1} of the full text.`).join('\n') + '\n';

describe('kind rules (doctor): each kind × each rule', () => {
  test.each(LEDGER_KINDS)('a complete %s breaks no rule', (kind) => {
    expect(kindProblems(note(COMPLETE[kind]))).toEqual([]);
  });

  test.each<[string, Record<string, string>, string, [string, string][]]>([
    ['decision without target', { ...COMPLETE.decision, target: '""' }, '', [['kind_rule', 'target']]],
    ['decision without rationale (field or section): advice only', { ...COMPLETE.decision, rationale: '""' }, '', [['kind_advice', 'rationale']]],
    ['decision with a Rationale section instead', { ...COMPLETE.decision, rationale: '""' }, '# D1\n## Rationale\nBecause.\n', []],
    ['superseded decision without rationale (a graveyard stub): no advice', { ...COMPLETE.decision, rationale: '""', state: 'superseded' }, '# D1\nSUPERSEDED.\n', []],
    ['claim without evidence', { note_type: 'claim', state: 'believed' }, '', [['kind_rule', 'evidence']]],
    ['refuted claim whose evidence only supports', { ...COMPLETE.claim, state: 'refuted' }, '', [['kind_rule', 'evidence']]],
    ['refuted claim with a refuting item', { note_type: 'claim', state: 'refuted', evidence: '[{ref: "[[Backtest 1404]]", stance: refutes}]' }, '', []],
    ['workflow without context', { note_type: 'workflow', method: 'x' }, '', [['kind_rule', 'context']]],
    ['workflow without trigger or method', { note_type: 'workflow', context: 'x' }, '', [['kind_rule', 'trigger']]],
    ['workflow with a trigger only', { note_type: 'workflow', context: 'x', trigger: 'a test fails twice' }, '', []],
    ['superseded workflow without a successor: advice', { ...COMPLETE.workflow, state: 'superseded' }, '# W003\nOld.\n', [['kind_advice', 'superseded_by']]],
    ['superseded workflow linking its successor', { ...COMPLETE.workflow, state: 'superseded' }, '# W003\nSee [[W007]].\n', []],
    ['active construct without code', { note_type: 'construct' }, '', [['kind_rule', 'code']]],
    ['dead construct without code, as a stub', { note_type: 'construct', state: 'DEAD' }, '## C012 proximity pruning (DEAD)\n', []],
    ['dead construct in full form', { ...COMPLETE.construct, state: 'dead' }, LONG_BODY, [['kind_rule', 'state']]],
    ['evolved construct in full form, no successor', { ...COMPLETE.construct, state: 'evolved' }, LONG_BODY, [['kind_rule', 'state'], ['kind_advice', 'superseded_by']]],
    ['evolved construct stub naming its successor', { ...COMPLETE.construct, state: 'evolved', superseded_by: '"[[C089]]"' }, '## C012 (EVOLVED)\n', []],
  ])('%s', (_name, fm, body, expected) => {
    expect(kindProblems(note(fm, body || '# Entry\nText.\n'))).toEqual(expected);
  });

  test('a stub is counted in non-empty lines: heading, state and pointer pass, one more line does not', () => {
    const stub = '## C012 proximity pruning\n\nDEAD\n\n→ [[Pruning history]]\n';
    expect(kindProblems(note({ note_type: 'construct', state: 'dead' }, stub))).toEqual([]);
    expect(kindProblems(note({ note_type: 'construct', state: 'dead' }, `${stub}Lesson: too aggressive.\n`))).toEqual([['kind_rule', 'state']]);
  });

  test.each<[LedgerKind, string, RegExp]>([
    ['claim', 'dead', /"dead" is a state of a construct, not of a claim: its validity is one of unverified, believed, contested, refuted/],
    ['construct', 'refuted', /"refuted" is a state of a claim, not of a construct: its liveness is one of active, dead, evolved/],
    ['workflow', 'active', /"active" is a state of a decision or construct, not of a workflow/],
    ['decision', 'zombie', /"zombie" is not a state of any ledger kind/],
  ])('liveness and validity never mix: a %s with state %s', (kind, state, message) => {
    const n = note({ ...COMPLETE[kind], state });
    expect(n.problems.filter((p) => p.code === 'kind_rule')).toEqual([expect.objectContaining({ field: 'state', message: expect.stringMatching(message) })]);
    expect(n.meta.ledger?.state).toBe(LEDGER_STATES[kind][0]);
  });

  test('every rule of the table is exercised above by its kinds', () => {
    expect(KIND_RULES.map((r) => r.id)).toEqual([
      'state-of-kind', 'decision-target', 'decision-rationale', 'claim-evidence', 'refuted-claim-refutes',
      'workflow-context', 'workflow-trigger-or-method', 'construct-code', 'construct-stub', 'successor',
    ]);
  });
});

describe('state transitions', () => {
  const meta = (kind: LedgerKind, fm: Record<string, unknown>) =>
    parseLedgerMeta(kind, { text: (f) => (typeof fm[f] === 'string' ? (fm[f]) : null), list: (f) => (fm[f] as string[]) ?? [], raw: (f) => fm[f], problem: () => undefined });

  // Every pair of states of every kind: allowed exactly when the table lists it (or it is no change).
  const pairs = LEDGER_KINDS.flatMap((kind) =>
    (LEDGER_STATES[kind] as readonly string[]).flatMap((from) => (LEDGER_STATES[kind] as readonly string[]).map((to) => [kind, from, to] as const)),
  );
  test.each(pairs)('%s: %s → %s', (kind, from, to) => {
    const listed = from === to || (LEDGER_TRANSITIONS[kind] as Record<string, readonly string[]>)[from].includes(to);
    const evidence = [{ ref: 'new run', stance: 'supports' }];
    const refusal = transitionRefusal(meta(kind, { state: from }), meta(kind, { state: to, evidence }));
    expect(refusal === null).toBe(listed);
  });

  test('a dead construct never becomes active again, and the refusal says what to do', () => {
    expect(transitionRefusal(meta('construct', { state: 'dead' }), meta('construct', { state: 'active' }))).toBe(
      'A construct cannot go from dead to active. From dead a construct may become evolved. Record a new construct instead (it may name this one).',
    );
  });

  test('a refuted claim goes back to contested only with evidence it did not have', () => {
    const before = meta('claim', { state: 'refuted', evidence: [{ ref: 'run 1404', stance: 'refutes' }] });
    expect(transitionRefusal(before, meta('claim', { state: 'contested', evidence: [{ ref: 'run 1404', stance: 'refutes' }] }))).toMatch(/only with new evidence/);
    expect(transitionRefusal(before, meta('claim', { state: 'contested', evidence: [{ ref: 'run 1404', stance: 'refutes' }, { ref: 'run 1500', stance: 'supports' }] }))).toBeNull();
  });
});
