import { parse } from 'yaml';
import { AGENT, HUMAN, openTools, type ToolHarness } from './fixture';

let t: ToolHarness;

beforeEach(async () => {
  t = await openTools();
});

afterEach(async () => {
  await t.engine.close();
});

const NS = 'project/ledger';

function frontmatterOf(path: string): Record<string, unknown> {
  const text = t.vault.text(path)!;
  return parse(text.slice(4, text.indexOf('\n---\n'))) as Record<string, unknown>;
}

async function write(args: Record<string, unknown>, caller = AGENT) {
  return t.call('lithos_write', { namespace: NS, content: '# Entry\nWhat we know.\n', ...args }, caller);
}

/** Updates a note as the agent, with the version it just read. */
async function update(path: string, args: Record<string, unknown>) {
  const { version } = await t.call('lithos_read', { path });
  return t.call('lithos_write', { path, expected_version: version, ...args });
}

describe('lithos_write of ledger entries', () => {
  test('a claim: its fields go into frontmatter (evidence as {ref, stance}); lithos_read returns them', async () => {
    const r = await write({
      title: 'Pullback edge',
      note_type: 'claim',
      state: 'contested',
      evidence: ['[[Pool sizing]]', { ref: 'rcpt_0042', stance: 'refutes' }],
      modifiers: ['Needs  Data'],
    });
    expect(frontmatterOf(r.path)).toMatchObject({
      note_type: 'claim',
      state: 'contested',
      evidence: [
        { ref: '[[Pool sizing]]', stance: 'supports' },
        { ref: 'rcpt_0042', stance: 'refutes' },
      ],
      modifiers: ['needs data'],
    });
    const read = await t.call('lithos_read', { path: r.path });
    expect(read.meta.ledger).toEqual(
      expect.objectContaining({ kind: 'claim', state: 'contested', evidence: [{ ref: '[[Pool sizing]]', stance: 'supports' }, { ref: 'rcpt_0042', stance: 'refutes' }], modifiers: ['needs data'] }),
    );
    expect(read.problems).toEqual([]);
    // The evidence link is a link like any other: it resolves to the note.
    expect(read.links).toContainEqual({ raw: '[[Pool sizing]]', target: 'Pool sizing', resolved: true });
  });

  test('each kind with its own fields is written; a decision without rationale is advice, not a refusal', async () => {
    const d = await write({ title: 'Session store', note_type: 'decision', target: 'auth-service/session-store' });
    const w = await write({ title: 'Investigation', note_type: 'workflow', context: 'Bug investigations', trigger: 'a test fails twice', method: 'Trace against real data' });
    const c = await write({ title: 'SessionStore', note_type: 'construct', code: ['src/auth/session.ts', 'SessionStore.get'], modifiers: ['has debt'] });
    expect(frontmatterOf(d.path)).toMatchObject({ state: 'active', target: 'auth-service/session-store' });
    expect(frontmatterOf(w.path)).toMatchObject({ state: 'current', context: 'Bug investigations', trigger: 'a test fails twice', method: 'Trace against real data' });
    expect(frontmatterOf(c.path)).toMatchObject({ code: ['src/auth/session.ts', 'SessionStore.get'], modifiers: ['has debt'] });
    const doctor = await t.engine.doctor();
    expect(doctor.problems.filter((p) => p.path.startsWith(NS))).toEqual([expect.objectContaining({ path: d.path, code: 'kind_advice', field: 'rationale' })]);
  });

  test.each<[string, Record<string, unknown>, string, RegExp]>([
    ['a claim without evidence', { note_type: 'claim' }, 'evidence', /A claim needs an evidence chain.*Add evidence/],
    ['a refuted claim whose evidence only supports', { note_type: 'claim', state: 'refuted', evidence: ['[[Pool sizing]]'] }, 'evidence', /refuted claim needs the evidence that refutes it.*stance: refutes/],
    ['a claim that is "dead"', { note_type: 'claim', state: 'dead', evidence: ['x'] }, 'state', /"dead" is a state of a construct, not of a claim/],
    ['a construct that is "refuted"', { note_type: 'construct', state: 'refuted', code: ['src/a.ts'] }, 'state', /"refuted" is a state of a claim, not of a construct/],
    ['a decision without target', { note_type: 'decision', rationale: 'Because.' }, 'target', /needs the target.*Set target/],
    ['a workflow without context', { note_type: 'workflow', method: 'x' }, 'context', /needs its context/],
    ['a workflow without trigger or method', { note_type: 'workflow', context: 'x' }, 'trigger', /trigger .* or a method/],
    ['an active construct without code', { note_type: 'construct' }, 'code', /needs code pointers/],
    ['ledger fields on an observation', { note_type: 'observation', target: 'x' }, 'target', /"target" is a ledger field; this note is a observation/],
    ['another kind\'s field', { note_type: 'claim', evidence: ['x'], target: 'auth' }, 'target', /"target" is a decision's field, not a claim's/],
  ])('refused: %s (invalid_argument naming the field and the fix; nothing written)', async (_name, args, field, message) => {
    const before = t.snapshot();
    await expect(write({ title: 'Refused entry', ...args })).rejects.toMatchObject({ code: 'invalid_argument', data: expect.objectContaining({ field }), message: expect.stringMatching(message) });
    expect(t.snapshot()).toEqual(before);
  });

  test('transitions: a construct dies as a stub, and a dead construct never becomes active again', async () => {
    const c = await write({ title: 'Proximity pruning', note_type: 'construct', code: ['src/prune.ts'], content: '# Proximity pruning\nPrunes swings near each other.\nLong explanation.\nMore.\n' });
    // Retired in full form: the graveyard keeps the text and the note becomes the stub (docs/ledger.md → Graveyard).
    await update(c.path, { state: 'dead' });
    expect(t.vault.text(c.path)).toContain(`[[Lithos/Graveyard/Constructs#${c.ledger_id}]]`);
    expect(t.vault.text('Lithos/Graveyard/Constructs.md')).toContain('Prunes swings near each other.'); // a shared note
    // A stub stays a stub: a long body on a dead construct is still refused.
    await expect(update(c.path, { content: '# P\none\ntwo\nthree\n' })).rejects.toMatchObject({ code: 'invalid_argument', data: expect.objectContaining({ field: 'state', rule: 'construct-stub' }) });
    await update(c.path, { state: 'dead', content: '## Proximity pruning (DEAD)\nReplaced by [[Pool sizing]].\n' });
    expect(frontmatterOf(c.path).state).toBe('dead');
    await expect(update(c.path, { state: 'active' })).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('A construct cannot go from dead to active. From dead a construct may become evolved. Record a new construct instead'),
      data: expect.objectContaining({ field: 'state', from: 'dead', to: 'active' }),
    });
    await update(c.path, { state: 'evolved', content: '## Proximity pruning (EVOLVED)\nInto [[Pool sizing]].\n' }); // a misclassification corrected
    expect(frontmatterOf(c.path).state).toBe('evolved');
    // Each move is audited after its note.write; refused ones left no trace.
    const moves = await t.engine.services.governance.audit.recent({ action: 'ledger.state', limit: 10 });
    expect(moves.map((e) => e.data).reverse()).toEqual([
      { path: c.path, kind: 'construct', from: 'active', to: 'dead' },
      { path: c.path, kind: 'construct', from: 'dead', to: 'evolved' },
    ]);
    expect(moves.every((e) => e.actor.kind === 'agent' && e.actor.id === 'agent-a' && e.target === c.id)).toBe(true);
  });

  test('transitions: a refuted claim goes back to contested only with new evidence', async () => {
    const c = await write({ title: 'Win rate 74%', note_type: 'claim', state: 'refuted', evidence: [{ ref: 'run 1404', stance: 'refutes' }] });
    await expect(update(c.path, { state: 'contested' })).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/only with new evidence/) });
    await expect(update(c.path, { state: 'believed' })).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/From refuted a claim may become contested/) });
    await update(c.path, { state: 'contested', evidence: [{ ref: 'run 1404', stance: 'refutes' }, 'run 1418 tick data'] });
    expect(frontmatterOf(c.path)).toMatchObject({ state: 'contested', evidence: [{ ref: 'run 1404', stance: 'refutes' }, { ref: 'run 1418 tick data', stance: 'supports' }] });
  });

  test('a person is never refused: their incomplete claim is written and doctor reports it; an agent may still edit it otherwise', async () => {
    const r = await write({ title: 'Hunch', note_type: 'claim', state: 'believed' }, HUMAN);
    expect((await t.engine.doctor()).problems).toContainEqual(expect.objectContaining({ path: r.path, code: 'kind_rule', field: 'evidence' }));
    expect((await t.call('lithos_read', { path: r.path })).problems).toEqual([{ code: 'kind_rule', field: 'evidence', message: expect.stringMatching(/^A claim needs an evidence chain/) }]);
    // The agent's tag breaks no rule the note did not already break (the person lets agents change their notes
    // here; by default it would be a proposal: the trust boundary, test/governance/trust-boundary.test.ts).
    await t.engine.services.governance.policy.set({ ...t.engine.services.governance.policy.get(), person_notes: 'allow' });
    await update(r.path, { tags: ['to-check'] });
    expect(frontmatterOf(r.path).tags).toEqual(['to-check']);
    // But a new break is its own: calling the believed claim "dead" is refused.
    await expect(update(r.path, { state: 'dead' })).rejects.toMatchObject({ code: 'invalid_argument', data: expect.objectContaining({ field: 'state' }) });
  });

  test('where a person confirms agent changes, a write breaking a rule is refused rather than proposed', async () => {
    await t.engine.services.governance.policy.set({ ...t.engine.services.governance.policy.get(), propose_namespaces: [NS] });
    await expect(write({ title: 'Unproven', note_type: 'claim' })).rejects.toMatchObject({ code: 'invalid_argument', data: expect.objectContaining({ field: 'evidence' }) });
    expect((await t.engine.services.governance.proposals.list()).proposals).toEqual([]);
    const ok = await write({ title: 'Proven', note_type: 'claim', evidence: ['[[Pool sizing]]'] });
    expect(ok.status).toBe('pending');
  });

  test('lithos_list and lithos_search filter by the ledger kinds', async () => {
    const claim = await write({ title: 'Pool too small', note_type: 'claim', evidence: ['[[Pool sizing]]'], content: 'The connection pool was too small.\n' });
    await write({ title: 'Pool decision', note_type: 'decision', target: 'atlas/pool', content: 'Raise the connection pool.\n' });
    const list = await t.call('lithos_list', { note_type: 'claim' });
    expect(list.notes.map((n: { path: string }) => n.path)).toEqual([claim.path]);
    const hits = await t.call('lithos_search', { query: 'connection pool', note_type: ['claim'] });
    expect(hits.results.map((h: { path: string }) => h.path)).toEqual([claim.path]);
  });
});
