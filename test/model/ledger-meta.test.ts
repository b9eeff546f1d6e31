import { parseNote } from '../../shared/model/note';
import type { NoteProblem } from '../../shared/model/types';
import { decodeCachedMeta, encodeCachedMeta, type CachedNoteMeta } from '../../shared/vault/cached-note';

function note(fm: string, body = 'Text.\n') {
  return parseNote('ledger/Entry.md', `---\n${fm}\n---\n${body}`);
}

/** Problems other than the kind rules' (those are specified in ledger-rules.test.ts). */
function parseProblems(problems: NoteProblem[]): NoteProblem[] {
  return problems.filter((p) => p.code !== 'kind_rule' && p.code !== 'kind_advice');
}

describe('ledger fields in NoteMeta', () => {
  test('a claim: ID as text, state in any case, evidence as mappings and plain refs (plain ones support)', () => {
    const n = note(
      [
        'note_type: Claim',
        'ledger_id: E007',
        'state: " Contested "',
        'evidence:',
        '  - "[[Backtest 1404]]"',
        '  - {ref: "[[Backtest 1343]]", stance: Refutes}',
        '  - ref: rcpt_0042',
        '  - 1418',
        'modifiers: Has  Debt',
      ].join('\n'),
    );
    expect(parseProblems(n.problems)).toEqual([]);
    expect(n.meta.ledger).toEqual({
      kind: 'claim',
      ledger_id: 'E007',
      state: 'contested',
      target: null,
      rationale: null,
      evidence: [
        { ref: '[[Backtest 1404]]', stance: 'supports' },
        { ref: '[[Backtest 1343]]', stance: 'refutes' },
        { ref: 'rcpt_0042', stance: 'supports' },
        { ref: '1418', stance: 'supports' },
      ],
      context: null,
      trigger: null,
      method: null,
      code: [],
      modifiers: ['has debt'],
      superseded_by: [],
    });
  });

  test('only the ledger kinds have ledger fields: an observation\'s `state` is its own business', () => {
    const n = note('note_type: observation\nstate: dead\ntarget: x');
    expect(n.meta.ledger).toBeUndefined();
    expect(n.problems).toEqual([]);
  });

  test('a string where a list belongs is a one-item list; an absent state is the kind\'s first', () => {
    const n = note('note_type: construct\ncode: src/auth/session.ts\nevidence: "[[Ignored for a construct]]"');
    expect(n.meta.ledger).toMatchObject({ kind: 'construct', state: 'active', code: ['src/auth/session.ts'] });
  });

  test('an unquoted [[link]] (YAML reads a list in a list) is read back as the link', () => {
    const n = note('note_type: claim\nevidence:\n  - [[Run 12]]');
    expect(n.meta.ledger?.evidence).toEqual([{ ref: '[[Run 12]]', stance: 'supports' }]);
  });

  test.each([
    ['a stance nobody uses', '  - {ref: a, stance: maybe}', 'unknown_enum', 'evidence.1.stance'],
    ['a mapping without ref', '  - {stance: refutes}', 'wrong_type', 'evidence.1.ref'],
    ['a boolean', '  - true', 'wrong_type', 'evidence.1'],
  ])('evidence with %s is reported and the item ignored, never guessed', (_name, item, code, field) => {
    const n = note(`note_type: claim\nevidence:\n  - kept\n${item}`);
    expect(n.meta.ledger?.evidence).toEqual([{ ref: 'kept', stance: 'supports' }]);
    expect(parseProblems(n.problems)).toEqual([expect.objectContaining({ code, field })]);
  });

  test('stance spellings a person uses: against / contradicts refute, for supports', () => {
    const n = note('note_type: claim\nevidence:\n  - {ref: a, stance: against}\n  - {ref: b, stance: Contradicts}\n  - {ref: c, stance: for}\n  - {ref: c, stance: for}');
    expect(n.meta.ledger?.evidence.map((e) => e.stance)).toEqual(['refutes', 'refutes', 'supports']);
  });

  test('text fields of every kind; a mapping where text belongs is reported', () => {
    const d = note('note_type: decision\ntarget: auth-service/session-store\nrationale: {why: x}\nsuperseded_by: "[[D003]]"');
    expect(d.meta.ledger).toMatchObject({ target: 'auth-service/session-store', rationale: null, superseded_by: ['[[D003]]'] });
    expect(parseProblems(d.problems)).toEqual([expect.objectContaining({ code: 'wrong_type', field: 'rationale' })]);
    const w = note('note_type: workflow\ncontext: Bug investigations\ntrigger: a test fails\nmethod: trace against real data');
    expect(w.meta.ledger).toMatchObject({ state: 'current', context: 'Bug investigations', trigger: 'a test fails', method: 'trace against real data' });
  });

  test('a ledger note cached before its ledger fields were read is indexed again; other notes keep their rows', () => {
    const cached = (text: string): CachedNoteMeta => {
      const p = parseNote('a.md', text);
      return { meta: p.meta, headings: p.headings, links: p.links, problems: p.problems, hasFrontmatter: p.hasFrontmatter, frame: null };
    };
    const claim = cached('---\nnote_type: claim\nevidence: [x]\n---\nText.\n');
    expect(decodeCachedMeta(encodeCachedMeta(claim))?.meta.ledger).toEqual(claim.meta.ledger);
    const { ledger: _dropped, ...older } = claim.meta;
    expect(decodeCachedMeta(encodeCachedMeta({ ...claim, meta: older }))).toBeNull();
    const observation = cached('---\nnote_type: observation\n---\nText.\n');
    expect(decodeCachedMeta(encodeCachedMeta(observation))).not.toBeNull();
  });
});
