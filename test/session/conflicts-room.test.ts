import { note, openHarness, type Harness } from '../engine/harness';
import { failure } from '../twins/error-code';
import type { SessionCaller } from '../../shared/session/caller';
import { PERSON } from '../../shared/session/caller';

/** The conflicts room: what a session's viewer may know of, open and settle among contradictions. */

const A_ID = '11111111-1111-4111-8111-111111111111';
const B_ID = '22222222-2222-4222-8222-222222222222';
const C_ID = '33333333-3333-4333-8333-333333333333';
const P_ID = '55555555-5555-4555-8555-555555555555';
const A = 'project/atlas/Pool size.md';
const B = 'project/atlas/Pool tuning.md';

const ALICE: SessionCaller = { kind: 'agent', agent_id: 'alice' };
const BOB: SessionCaller = { kind: 'agent', agent_id: 'bob' };
const NOBODY: SessionCaller = { kind: 'agent', agent_id: null };

const FILES: Record<string, string> = {
  [A]: note({ id: A_ID, title: 'Pool size' }, 'The pool size is 20.\n'),
  [B]: note({ id: B_ID, title: 'Pool tuning' }, 'The pool size is 50.\n'),
  'project/atlas/Coalescing.md': note({ id: C_ID, title: 'Coalescing' }, 'Coalescing is on.\n'),
  'agent/bob/Private pool.md': note({ id: P_ID, title: 'Private pool', access_scope: 'agent_private', author: 'bob' }, 'The pool size is 80.\n'),
};

let h: Harness;
let open: string;
let hidden: string;
beforeEach(async () => {
  h = await openHarness(FILES);
  await h.engine.reconcile();
  const person = await h.engine.as(PERSON);
  open = (await person.conflicts.open({ from: A_ID, to: B_ID, evidence: '20 vs 50' }, 'test')).conflict.edge_id;
  hidden = (await person.conflicts.open({ from: A, to: P_ID }, 'test')).conflict.edge_id;
});
afterEach(async () => {
  await h.engine.close();
});

/** Edge ids in a stable order (both conflicts open at the same instant of the fake clock). */
const ids = (cs: { edge_id: string }[]) => cs.map((c) => c.edge_id).sort();

describe('what a viewer knows of conflicts', () => {
  it('lists only the conflicts whose both notes it sees; the person and the private note’s owner see all', async () => {
    expect(ids((await h.engine.as(ALICE)).conflicts.list())).toEqual([open]);
    expect(ids((await h.engine.as(BOB)).conflicts.list())).toEqual([open, hidden].sort());
    expect(ids((await h.engine.as(PERSON)).conflicts.list({ state: 'unreviewed', node: A }))).toEqual([open, hidden].sort());
  });

  it('a conflict with an end it may not see is not_found, with the message of a conflict that does not exist', async () => {
    const alice = await h.engine.as(ALICE);
    const unseen = await failure(Promise.resolve().then(() => alice.conflicts.get(hidden)));
    const unknown = await failure(Promise.resolve().then(() => alice.conflicts.get('no-such-edge')));
    expect(unseen.code).toBe('not_found');
    expect(unseen.message).toBe(`No conflict with edge_id "${hidden}". lithos_conflict_list shows them.`);
    expect(unknown.message).toBe('No conflict with edge_id "no-such-edge". lithos_conflict_list shows them.');
    expect(alice.conflicts.get(open)).toMatchObject({ a: A_ID, b: B_ID, state: 'unreviewed' });
    expect(alice.conflicts.edge(hidden)).toBeNull();
    expect(alice.conflicts.edge(open)).toMatchObject({ edge_id: open, type: 'contradicts', from_id: A_ID, to_id: B_ID });
    // Naming the hidden note as the node to list by is naming no note at all.
    expect((await failure(Promise.resolve().then(() => alice.conflicts.list({ node: P_ID })))).code).toBe('not_found');
  });
});

describe('opening a conflict', () => {
  it('takes two notes the viewer sees, as its own act; a pair already in conflict comes back unchanged', async () => {
    const alice = await h.engine.as(ALICE);
    const r = await alice.conflicts.open({ from: 'project/atlas/Coalescing.md', to: B_ID, evidence: 'on vs off' }, 'lithos_conflict_open');
    expect(r.created).toBe(true);
    expect(r.conflict).toMatchObject({ a: C_ID, b: B_ID, state: 'unreviewed', provenance_type: 'agent', provenance_actor: 'alice' });
    const again = await alice.conflicts.open({ from: B_ID, to: C_ID }, 'lithos_conflict_open');
    expect(again).toMatchObject({ created: false, conflict: { edge_id: r.conflict.edge_id } });
  });

  it('refuses a note it may not see (not_found), the same note twice, and an agent with no id, opening nothing', async () => {
    const before = h.engine.services.conflicts.list().length;
    const alice = await h.engine.as(ALICE);
    expect((await failure(alice.conflicts.open({ from: C_ID, to: P_ID }, 'lithos_conflict_open'))).code).toBe('not_found');
    expect(await failure(alice.conflicts.open({ from: A_ID, to: A }, 'lithos_conflict_open'))).toMatchObject({ code: 'invalid_argument', message: 'A conflict needs two different notes.' });
    const nobody = await failure((await h.engine.as(NOBODY)).conflicts.open({ from: A_ID, to: C_ID }, 'lithos_conflict_open'));
    expect(nobody).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('lithos_conflict_open needs to know which agent is writing') });
    expect(h.engine.services.conflicts.list()).toHaveLength(before);
  });
});

describe('resolving a conflict', () => {
  it('an agent resolves as itself; the person may name who resolved it', async () => {
    const alice = await h.engine.as(ALICE);
    expect(await failure(alice.conflicts.resolve({ edge_id: open, resolution: 'accepted_dual', resolver: 'bob' }, 'lithos_conflict_resolve'))).toMatchObject({
      code: 'invalid_argument',
      message: 'An agent resolves conflicts as itself ("alice"); resolver "bob" is not you.',
    });
    const r = await alice.conflicts.resolve({ edge_id: open, resolution: 'accepted_dual', resolver: 'alice' }, 'lithos_conflict_resolve');
    expect(r.conflict.evidence.resolution).toMatchObject({ resolution: 'accepted_dual', resolver: 'alice' });
    const byPerson = await (await h.engine.as(PERSON)).conflicts.resolve({ edge_id: hidden, resolution: 'refuted', winner_id: A, resolver: 'Ada' }, 'lithos_conflict_resolve');
    expect(byPerson.conflict.evidence.resolution).toMatchObject({ resolution: 'refuted', resolver: 'Ada', winner_id: A_ID, loser_id: P_ID });
  });

  it('a conflict the agent may not see is not_found, and settles nothing', async () => {
    const alice = await h.engine.as(ALICE);
    expect((await failure(alice.conflicts.resolve({ edge_id: hidden, resolution: 'accepted_dual' }, 'lithos_conflict_resolve'))).code).toBe('not_found');
    expect(h.engine.services.conflicts.get(hidden)!.state).toBe('unreviewed');
  });

  it('an agent supersedes only where it may write both notes, and never a quarantined loser; the person may', async () => {
    const alice = await h.engine.as(ALICE);
    await h.engine.services.notes.updateFrontmatter(B, (fm) => void (fm.status = 'quarantined'));
    expect(await failure(alice.conflicts.resolve({ edge_id: open, resolution: 'superseded', winner_id: A_ID }, 'lithos_conflict_resolve'))).toMatchObject({
      code: 'forbidden',
      message: `Cannot supersede "${B}": it is quarantined, and a person reviews it (archiving it would lift the quarantine).`,
    });
    await h.engine.services.notes.updateFrontmatter(B, (fm) => void (fm.status = 'active'));
    await h.engine.services.governance.policy.set({ ...h.engine.services.governance.policy.get(), propose_namespaces: ['project/atlas'] });
    const proposing = await h.engine.as(ALICE);
    expect(await failure(proposing.conflicts.resolve({ edge_id: open, resolution: 'superseded', winner_id: A_ID }, 'lithos_conflict_resolve'))).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('changes in "project/atlas" are confirmed by a person'),
    });
    expect(h.vault.text(B)).not.toMatch(/status: archived/);
    expect((await (await h.engine.as(PERSON)).conflicts.resolve({ edge_id: open, resolution: 'superseded', winner_id: A_ID }, 'lithos_conflict_resolve')).conflict.state).toBe('superseded');
    expect(h.vault.text(B)).toMatch(/status: archived/);
  });

  it("an agent may not supersede the person's notes (the trust boundary) unless the policy allows it", async () => {
    const refused = await failure((await h.engine.as(ALICE)).conflicts.resolve({ edge_id: open, resolution: 'superseded', winner_id: A_ID }, 'lithos_conflict_resolve'));
    expect(refused).toMatchObject({ code: 'forbidden', data: { person_note: true }, message: expect.stringContaining(`"${A}" is the person's note`) });
    expect(h.vault.text(B)).not.toMatch(/status: archived/);
    await h.engine.services.governance.policy.set({ ...h.engine.services.governance.policy.get(), person_notes: 'allow' });
    expect((await (await h.engine.as(ALICE)).conflicts.resolve({ edge_id: open, resolution: 'superseded', winner_id: A_ID }, 'lithos_conflict_resolve')).conflict.state).toBe('superseded');
    expect(h.vault.text(B)).toMatch(/status: archived/);
  });
});
