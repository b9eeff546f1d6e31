import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller } from '../../shared/tools/types';
import { failure } from '../twins/error-code';
import { note, openHarness, type Harness } from '../engine/harness';

/**
 * The trust boundary (governance/trust-boundary.ts, vault/note-editors.ts): a note the person created or last
 * changed is theirs. An agent's change of any existing note names the version it read; its write or delete
 * of the person's note becomes a proposal the person accepts (policy person_notes: propose | allow | refuse);
 * authorship never moves. The person's own writes pass untouched.
 */

const ALICE: ToolCaller = { kind: 'agent', agent_id: 'alice' };
const HUMAN: ToolCaller = { kind: 'human', agent_id: null };

/** Written in Obsidian: no author field, as the person's notes usually are. */
const PERSONS = 'notes/Kitchen.md';
/** The person's, with their name as author. */
const SIGNED = 'notes/Signed.md';

let h: Harness;
let call: (name: string, args: unknown, caller: ToolCaller) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results
beforeEach(async () => {
  h = await openHarness({
    [PERSONS]: note({ title: 'Kitchen' }, 'The kettle is on the left.\n'),
    [SIGNED]: note({ title: 'Signed', author: 'Ana' }, 'Ana wrote this.\n'),
  });
  await h.engine.services.coordination.ensureAgent('alice');
  await h.engine.reconcile();
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine, deleteTo: 'trash_folder' }));
  call = (name, args, caller) => tools.call(name, args, caller);
});
afterEach(async () => {
  await h.engine.close();
});

const read = (path: string) => call('lithos_read', { path }, HUMAN);
const version = async (path: string): Promise<string> => (await call('lithos_read', { path }, ALICE)).version;
const setPolicy = (personNotes: string) => h.engine.services.governance.policy.set({ person_notes: personNotes });
const audited = async (action: string) => (await h.engine.services.governance.audit.recent({ action, limit: 100 })).reverse();

describe("an agent's write to the person's note", () => {
  test('without expected_version is refused, saying how to get it, and the note is unchanged', async () => {
    const before = h.vault.text(PERSONS);
    const err = await failure(call('lithos_write', { path: PERSONS, content: 'The kettle moved.\n' }, ALICE));
    expect(err).toMatchObject({ code: 'invalid_argument', data: { field: 'expected_version' } });
    expect(err.message).toContain('lithos_read returns its `version`');
    expect(h.vault.text(PERSONS)).toBe(before);
  });

  test('with expected_version becomes a proposal by default, and the result says so and why', async () => {
    const before = h.vault.text(PERSONS);
    const r = await call('lithos_write', { path: PERSONS, content: 'The kettle moved.\n', expected_version: await version(PERSONS) }, ALICE);
    expect(r).toMatchObject({ status: 'pending', path: PERSONS, why: 'person_note', proposal_id: expect.any(String) });
    expect(r.message).toMatch(/^Proposed, not applied: "notes\/Kitchen.md" is the person's note/);
    expect(h.vault.text(PERSONS)).toBe(before);
    expect((await audited('proposal.create')).at(-1)).toMatchObject({ actor: { kind: 'agent', id: 'alice' }, data: { path: PERSONS, why: 'person_note', op: 'write' } });
  });

  test('a stale expected_version is a conflict now, not a proposal that could never be accepted', async () => {
    const stale = await version(PERSONS);
    h.vault.put(PERSONS, note({ title: 'Kitchen' }, 'The kettle is on the right now.\n'), false);
    await h.engine.reconcile();
    const err = await failure(call('lithos_write', { path: PERSONS, content: 'x\n', expected_version: stale }, ALICE));
    expect(err).toMatchObject({ code: 'conflict', data: { current_version: await version(PERSONS) } });
    expect((await h.engine.services.governance.proposals.list()).proposals).toEqual([]);
  });

  test('accepted, it is applied: author never changes, the agent joins contributors once', async () => {
    for (const [path, text] of [
      [SIGNED, 'Ana wrote this; Alice added a line.\n'],
      [SIGNED, 'Ana wrote this; Alice added two lines.\n'],
      [PERSONS, 'The kettle is on the left, by the window.\n'],
    ]) {
      const p = await call('lithos_write', { path, content: text, expected_version: await version(path) }, ALICE);
      const accepted = await call('lithos_proposal_accept', { proposal_id: p.proposal_id }, HUMAN);
      expect(accepted.proposal).toMatchObject({ status: 'accepted', op: 'write', why: 'person_note' });
      expect((await read(path)).content).toBe(text);
    }
    expect((await read(SIGNED)).frontmatter).toMatchObject({ author: 'Ana', contributors: ['alice'] });
    const kitchen = (await read(PERSONS)).frontmatter;
    expect(kitchen.author).toBeUndefined();
    expect(kitchen.contributors).toEqual(['alice']);
    // Still the person's: they created it, so the next change waits for them again.
    const again = await call('lithos_write', { path: PERSONS, content: 'Moved.\n', expected_version: await version(PERSONS) }, ALICE);
    expect(again).toMatchObject({ status: 'pending', why: 'person_note' });
  });

  test('policy allow: written at once, author unchanged; refuse: forbidden, naming the setting', async () => {
    await setPolicy('allow');
    const r = await call('lithos_write', { path: SIGNED, content: 'Alice edited.\n', expected_version: await version(SIGNED) }, ALICE);
    expect(r).toMatchObject({ path: SIGNED, created: false });
    expect((await read(SIGNED)).frontmatter).toMatchObject({ author: 'Ana', contributors: ['alice'] });

    await setPolicy('refuse');
    const before = h.vault.text(PERSONS);
    const err = await failure(call('lithos_write', { path: PERSONS, content: 'x\n', expected_version: await version(PERSONS) }, ALICE));
    expect(err).toMatchObject({ code: 'forbidden', data: { person_note: true } });
    expect(err.message).toContain('person_notes: refuse');
    expect(h.vault.text(PERSONS)).toBe(before);
  });

  test('a note that predates tracking is the person’s unless its author is a known agent', async () => {
    h.vault.put('notes/Zed.md', note({ title: 'Zed', author: 'zed' }, 'By someone unknown.\n'), false);
    h.vault.put('notes/ByAlice.md', note({ title: 'By Alice', author: 'alice' }, 'By an agent.\n'), false);
    await h.engine.reconcile();
    const zed = await call('lithos_write', { path: 'notes/Zed.md', content: 'x\n', expected_version: await version('notes/Zed.md') }, ALICE);
    expect(zed).toMatchObject({ status: 'pending', why: 'person_note' });
    const mine = await call('lithos_write', { path: 'notes/ByAlice.md', content: 'Updated.\n', expected_version: await version('notes/ByAlice.md') }, ALICE);
    expect(mine).toMatchObject({ created: false });
  });
});

describe("an agent's own note", () => {
  test('stays writable with expected_version, and needs it for every update and delete', async () => {
    const { path } = await call('lithos_write', { title: 'Plan', namespace: 'notes', content: 'Step one.\n' }, ALICE);
    expect((await failure(call('lithos_write', { path, content: 'Step two.\n' }, ALICE))).code).toBe('invalid_argument');
    const r = await call('lithos_write', { path, content: 'Step two.\n', expected_version: await version(path) }, ALICE);
    expect(r).toMatchObject({ created: false });
    expect((await read(path)).frontmatter).toMatchObject({ author: 'alice', contributors: ['alice'] });
    expect((await failure(call('lithos_delete', { path }, ALICE))).code).toBe('invalid_argument');
    expect(await call('lithos_delete', { path, expected_version: await version(path) }, ALICE)).toMatchObject({ deleted: { path } });
  });

  test('becomes protected when the person edits its text on disk (reconcile), audited as note.protected', async () => {
    const { path, id } = await call('lithos_write', { title: 'Draft', namespace: 'notes', content: 'Agent draft.\n' }, ALICE);
    const fm = (await read(path)).frontmatter;
    h.vault.put(path, note(fm, 'The person rewrote the draft.\n'), false);
    await h.engine.reconcile();
    const r = await call('lithos_write', { path, content: 'x\n', expected_version: await version(path) }, ALICE);
    expect(r).toMatchObject({ status: 'pending', why: 'person_note' });
    expect((await audited('note.protected')).at(-1)).toMatchObject({ actor: { kind: 'human', id: null }, target: id, data: { path, why: 'changed on disk' } });
  });

  test('becomes protected when the person edits it in the open vault (watcher)', async () => {
    const { path } = await call('lithos_write', { title: 'Watched', namespace: 'notes', content: 'Agent text.\n' }, ALICE);
    h.engine.startWatching();
    h.vault.put(path, note({ ...(await read(path)).frontmatter, title: 'Watched, renamed by the person' }, 'Agent text.\n'));
    await h.engine.settle();
    const r = await call('lithos_write', { path, content: 'x\n', expected_version: await version(path) }, ALICE);
    expect(r).toMatchObject({ status: 'pending', why: 'person_note' });
  });

  test('becomes protected by an edit on disk the index has not seen yet, for a write and for a delete', async () => {
    const { path } = await call('lithos_write', { title: 'Racing', namespace: 'notes', content: 'Agent text.\n' }, ALICE);
    h.vault.put(path, note((await read(path)).frontmatter, 'The person, a moment ago.\n'), false); // no event, no reconcile
    const onDisk = (await h.engine.services.notes.parse(path)).contentHash;
    expect(await call('lithos_write', { path, content: 'x\n', expected_version: onDisk }, ALICE)).toMatchObject({ status: 'pending', why: 'person_note' });
    expect(await call('lithos_delete', { path, expected_version: onDisk }, ALICE)).toMatchObject({ status: 'pending', why: 'person_note' });
    expect(h.vault.text(path)).toContain('The person, a moment ago.');
  });

  test('a frontmatter-only edit (tags) is not a substantive change: it stays the agent’s', async () => {
    const { path } = await call('lithos_write', { title: 'Tagged', namespace: 'notes', content: 'Agent text.\n' }, ALICE);
    h.vault.put(path, note({ ...(await read(path)).frontmatter, tags: ['reviewed'] }, 'Agent text.\n'), false);
    await h.engine.reconcile();
    const r = await call('lithos_write', { path, content: 'More.\n', expected_version: await version(path) }, ALICE);
    expect(r).toMatchObject({ created: false });
  });

  test('becomes protected when the person changes it through a tool, and stops being so when an agent is allowed to rewrite it', async () => {
    const { path, id } = await call('lithos_write', { title: 'Shared', namespace: 'notes', content: 'Agent text.\n' }, ALICE);
    await call('lithos_write', { path, content: 'The person’s text.\n' }, HUMAN);
    expect(await call('lithos_write', { path, content: 'x\n', expected_version: await version(path) }, ALICE)).toMatchObject({ why: 'person_note' });
    await setPolicy('allow');
    await call('lithos_write', { path, content: 'Agent again.\n', expected_version: await version(path) }, ALICE);
    await setPolicy('propose');
    expect(await call('lithos_write', { path, content: 'y\n', expected_version: await version(path) }, ALICE)).toMatchObject({ created: false });
    expect((await audited('note.protected')).map((e) => e.target)).toEqual([id]);
    expect((await audited('note.unprotected')).map((e) => [e.target, e.actor])).toEqual([[id, { kind: 'agent', id: 'alice' }]]);
  });
});

describe("an agent's delete of the person's note", () => {
  test('becomes a proposal; accepted, the note goes to the trash', async () => {
    const r = await call('lithos_delete', { path: PERSONS, expected_version: await version(PERSONS) }, ALICE);
    expect(r).toMatchObject({ status: 'pending', why: 'person_note' });
    expect(r.message).toContain('your delete was kept as proposal');
    expect(h.vault.text(PERSONS)).toBeDefined();
    expect((await call('lithos_proposal_accept', { proposal_id: r.proposal_id }, HUMAN)).proposal).toMatchObject({ status: 'accepted', op: 'delete' });
    expect(h.vault.text(PERSONS)).toBeUndefined();
    expect(h.vault.paths()).toContain(`.trash/${PERSONS}`);
  });

  test('is refused under person_notes: refuse', async () => {
    await setPolicy('refuse');
    const err = await failure(call('lithos_delete', { path: PERSONS, expected_version: await version(PERSONS) }, ALICE));
    expect(err).toMatchObject({ code: 'forbidden', data: { person_note: true } });
    expect(h.vault.text(PERSONS)).toBeDefined();
  });
});

describe("the engine's own work", () => {
  const RULE = { kind: 'rule' as const, id: 'concepts' };

  test('a note the engine creates (a concept) is nobody’s to protect: agents change it with expected_version', async () => {
    await h.engine.services.notes.writeNote({ path: 'notes/Cluster.md', mode: 'create', content: 'Notes used together.\n', fields: { title: 'Cluster', note_type: 'concept' }, actor: null }, RULE);
    const r = await call('lithos_write', { path: 'notes/Cluster.md', content: 'Notes used together, named.\n', expected_version: await version('notes/Cluster.md') }, ALICE);
    expect(r).toMatchObject({ created: false });
  });

  test("its edits of a note's text (callouts) change nobody's note", async () => {
    const { path } = await call('lithos_write', { title: 'Agent note', namespace: 'notes', content: 'Agent text.\n' }, ALICE);
    for (const p of [path, PERSONS]) {
      expect(await h.engine.services.notes.editNoteText(p, (text) => `${text}\n> [!note] Managed by Lithos\n`, RULE)).toBe(true);
    }
    expect(await call('lithos_write', { path, content: 'More.\n', expected_version: await version(path) }, ALICE)).toMatchObject({ created: false });
    expect(await call('lithos_write', { path: PERSONS, content: 'x\n', expected_version: await version(PERSONS) }, ALICE)).toMatchObject({ why: 'person_note' });
  });
});

describe("the person's own writes", () => {
  test('never need expected_version and are never blocked, whatever the policy', async () => {
    await setPolicy('refuse');
    const { path } = await call('lithos_write', { title: 'Agent note', namespace: 'notes', content: 'Agent text.\n' }, ALICE);
    for (const p of [PERSONS, path]) expect(await call('lithos_write', { path: p, content: 'The person’s change.\n' }, HUMAN)).toMatchObject({ created: false });
    expect(await call('lithos_delete', { path: SIGNED }, HUMAN)).toMatchObject({ deleted: { path: SIGNED } });
  });
});
