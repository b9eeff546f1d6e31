import type { SessionCaller } from '../../shared/session/caller';
import type { MemorySession } from '../../shared/session/memory-session';
import type { NoteWrite } from '../../shared/session/note-writes';
import { note } from '../engine/harness';
import { failure } from '../twins/error-code';
import { ALICE, HUMAN, POLICY, openScopeVault, type ScopeVault } from '../governance/scope-vault';

/**
 * NotesRoom.write and .delete (shared/session/note-writes.ts): the vault's write policy applied by the
 * session, so every front door refuses the same writes with the same answers. Refused writes leave the vault
 * as it was.
 */

let v: ScopeVault;
beforeEach(async () => {
  v = await openScopeVault();
});
afterEach(async () => {
  await v.engine.close();
});

const as = (c: SessionCaller): Promise<MemorySession> => v.engine.as(c);
const body = (content: string, fields: NoteWrite['fields'] = {}): NoteWrite => ({ content, fields });
const version = (path: string): string => v.engine.services.notes.note(path)!.contentHash;
const snapshot = () => Object.fromEntries(v.vault.paths().map((p) => [p, v.vault.text(p)]));

async function refused(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const before = snapshot();
  const err = await failure(p);
  expect(snapshot()).toEqual(before);
  return err;
}

describe('write', () => {
  test('an agent creates a note in its own namespace, as its author', async () => {
    const r = await (await as(ALICE)).notes.write({ create: 'agent/alice/Plan.md' }, body('Steps.\n', { title: 'Plan' }), 'test_tool');
    expect(r).toMatchObject({ kind: 'written', title: 'Plan', result: { path: 'agent/alice/Plan.md', created: true } });
    expect(v.engine.services.notes.note('agent/alice/Plan.md')!.cached.meta.author).toBe('alice');
  });

  test('updates a note it names, keeping the body when none is given', async () => {
    const alice = await as(ALICE);
    const project = alice.notes.find({ path: v.path.project });
    const r = await alice.notes.write({ note: project }, { fields: { tags: ['zebra', 'kept'] }, expectedVersion: project.contentHash }, 'test_tool');
    expect(r).toMatchObject({ kind: 'written', result: { created: false } });
    expect(v.vault.text(v.path.project)).toContain('Zebra probe project');
  });

  test("a namespace the agent may not write into is refused naming the rule, whether a note is there or not", async () => {
    const alice = await as(ALICE);
    for (const path of ['people/me/Probe user_private.md', 'people/me/Nothing here.md']) {
      const err = await refused(alice.notes.write({ path }, body('x\n'), 'test_tool'));
      expect(err).toMatchObject({ code: 'forbidden', message: expect.stringContaining('outside your namespace allowlist') });
    }
  });

  test('a note there that the agent may not see is not found, not forbidden', async () => {
    v.vault.put('project/atlas/Mine.md', note({ title: 'Mine', namespace: 'project/atlas', access_scope: 'user_private' }, 'The person’s.\n'), false);
    await v.engine.reconcile();
    const err = await refused((await as(ALICE)).notes.write({ path: 'project/atlas/Mine.md' }, body('x\n'), 'test_tool'));
    expect(err).toMatchObject({ code: 'not_found', message: expect.stringContaining('there is no note there that you may change') });
  });

  test('a hidden folder is refused to agents, and open to the person', async () => {
    await v.engine.services.governance.policy.set({ ...POLICY, hidden_folders: ['project/atlas/private'] });
    const err = await refused((await as(ALICE)).notes.write({ path: 'project/atlas/private/X.md' }, body('x\n'), 'test_tool'));
    expect(err).toMatchObject({ code: 'forbidden', message: expect.stringContaining('hidden from agents') });
    expect(await (await as(HUMAN)).notes.write({ path: 'project/atlas/private/X.md' }, body('x\n'), 'test_tool')).toMatchObject({ kind: 'written' });
  });

  test('an agent may not lift a quarantine', async () => {
    await (await as(HUMAN)).notes.write({ path: v.path.project }, { fields: { status: 'quarantined' } }, 'test_tool');
    const alice = await as(ALICE);
    const err = await refused(alice.notes.write({ path: v.path.project }, { fields: { status: 'active' } }, 'test_tool'));
    expect(err).toMatchObject({ code: 'forbidden', message: expect.stringContaining('is quarantined') });
  });

  test('in a namespace a person confirms, the write becomes a proposal and the note is unchanged', async () => {
    await v.engine.services.governance.policy.set({ ...POLICY, propose_namespaces: ['project/atlas'] });
    const before = snapshot();
    const r = await (await as(ALICE)).notes.write({ path: v.path.project }, { ...body('Rewritten.\n'), expectedVersion: version(v.path.project) }, 'test_tool');
    expect(r).toMatchObject({ kind: 'proposed', why: 'namespace', path: v.path.project, namespace: 'project/atlas', proposal: { status: 'pending', agent: 'alice' } });
    expect(snapshot()).toEqual(before);
  });

  test('a new note needs content', async () => {
    const err = await refused((await as(ALICE)).notes.write({ create: 'agent/alice/Empty.md' }, { fields: { title: 'Empty' } }, 'test_tool'));
    expect(err).toMatchObject({ code: 'invalid_argument', message: 'A new note needs content (its Markdown body).' });
  });
});

describe('delete', () => {
  test('an agent deletes a note it may change, recorded as the deleter', async () => {
    const alice = await as(ALICE);
    const mine = alice.notes.find({ path: v.path.agent_private });
    const r = await alice.notes.delete(mine, { trash: true, expectedVersion: mine.contentHash }, 'test_tool');
    expect(r).toMatchObject({ kind: 'deleted', result: { path: v.path.agent_private, trashed_to: expect.stringMatching(/^\.trash\//) } });
    expect(v.engine.services.notes.note(v.path.agent_private)).toBeNull();
  });

  test('a note the viewer may not see is not found', async () => {
    const person = await as(HUMAN);
    const hidden = person.notes.find({ path: v.path.user_private });
    const err = await refused((await as(ALICE)).notes.delete(hidden, {}, 'test_tool'));
    expect(err.code).toBe('not_found');
  });

  test('in a namespace a person confirms, an agent may not delete', async () => {
    await v.engine.services.governance.policy.set({ ...POLICY, propose_namespaces: ['project/atlas'] });
    const alice = await as(ALICE);
    const err = await refused(alice.notes.delete(alice.notes.find({ path: v.path.project }), {}, 'test_tool'));
    expect(err).toMatchObject({ code: 'forbidden', message: expect.stringContaining('are confirmed by a person') });
  });
});
