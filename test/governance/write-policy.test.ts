import type { ToolCaller } from '../../shared/tools/types';
import { failure } from '../twins/error-code';
import { ALICE, BOB, DAVE, HUMAN, openScopeVault, type ScopeVault } from './scope-vault';

/**
 * Where agents may write (shared/governance/write-policy.ts): a note they cannot see is not found (its
 * existence does not leak); a scope or namespace they may not write into is forbidden, with the rule named.
 * Either way nothing is written and nothing is audited as a write.
 */

let v: ScopeVault;
beforeEach(async () => {
  v = await openScopeVault();
});
afterEach(async () => {
  await v.engine.close();
});

const version = async (path: string): Promise<string> => (await v.call('lithos_read', { path }, HUMAN)).version;
const snapshot = () => Object.fromEntries(v.vault.paths().map((p) => [p, v.vault.text(p)]));
const writes = async () => (await v.engine.services.governance.audit.recent({ action: 'note.write', limit: 1000 })).length;

async function refused(tool: string, args: Record<string, unknown>, caller: ToolCaller): Promise<{ code: string; message: string }> {
  const before = snapshot();
  const audited = await writes();
  const err = await failure(v.call(tool, args, caller));
  expect(snapshot()).toEqual(before);
  expect(await writes()).toBe(audited);
  return err;
}

describe('another spelling of a path is the same note', () => {
  test.each<[string, (p: string) => string]>([
    ['in another case', (p) => p.replace('Café notes', 'CAFÉ NOTES')],
    ['decomposed (NFD)', (p) => p.normalize('NFD')],
  ])('alice writing her note by its path spelled %s updates it: no second note, same id (a disk that ignores case)', async (_how, spell) => {
    v.vault.caseInsensitive = true;
    await v.call('lithos_write', { path: 'agent/alice/Café notes.md', title: 'Café notes', content: 'First.\n' }, ALICE);
    const before = v.vault.paths().length;
    const id = v.engine.services.notes.note('agent/alice/Café notes.md')!.nodeId;
    const r = await v.call('lithos_write', { path: spell('agent/alice/Café notes.md'), content: 'Second.\n', expected_version: await version('agent/alice/Café notes.md') }, ALICE);
    expect(r).toMatchObject({ id, path: 'agent/alice/Café notes.md' });
    expect(v.vault.paths()).toHaveLength(before);
    expect(v.vault.text('agent/alice/Café notes.md')).toContain('Second.');
    expect((await v.call('lithos_read', { path: spell('agent/alice/Café notes.md') }, ALICE)).id).toBe(id);
  });

  // On Linux PLAN.md beside plan.md is another file: it must not overwrite, read or delete the first.
  test('on a case-sensitive disk a path in another case is another note', async () => {
    const first = await v.call('lithos_write', { path: 'agent/alice/plan.md', title: 'plan', content: 'Lower.\n' }, ALICE);
    const second = await v.call('lithos_write', { path: 'agent/alice/PLAN.md', title: 'PLAN', content: 'Upper.\n' }, ALICE);
    expect(second.id).not.toBe(first.id);
    expect(v.vault.text('agent/alice/plan.md')).toContain('Lower.');
    expect(v.vault.text('agent/alice/PLAN.md')).toContain('Upper.');
    expect((await failure(v.call('lithos_delete', { path: 'agent/alice/Plan.md' }, ALICE))).code).toBe('not_found');
    expect(v.vault.text('agent/alice/plan.md')).toContain('Lower.');
    // A decomposed spelling is still the same note everywhere.
    expect((await v.call('lithos_read', { path: 'agent/alice/plan.md'.normalize('NFD') }, ALICE)).id).toBe(first.id);
  });

  test("another agent's namespace in another case is still that agent's", async () => {
    const err = await refused('lithos_write', { path: 'Agent/Bob/Mine.md', content: 'x\n' }, ALICE);
    expect(err).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/belongs to agent "Bob"/) });
  });
});

describe('forbidden: a scope or namespace the agent may not write into', () => {
  const create = (o: Record<string, unknown>) => ({ title: 'New note', content: 'Body.\n', ...o });
  test.each<[string, (v: ScopeVault) => Record<string, unknown>, RegExp]>([
    ['a user_private note', () => create({ namespace: 'project/atlas', access_scope: 'user_private' }), /user_private notes belong to the person/],
    ["another agent's namespace", () => create({ namespace: 'agent/bob' }), /belongs to agent "bob"/],
    ['the namespace of a task it is not on', (s) => create({ namespace: `task/${s.taskU}`, access_scope: 'task' }), /which you are not on/],
    ['a project namespace outside its allowlist', () => create({ namespace: 'project/orion', access_scope: 'project' }), /outside your namespace allowlist/],
    ['the same namespace by path instead of namespace', () => ({ path: 'project/orion/X.md', content: 'x\n', access_scope: 'project' }), /outside your namespace allowlist/],
  ])('alice may not create %s', async (_what, args, message) => {
    const err = await refused('lithos_write', args(v), ALICE);
    expect(err.code).toBe('forbidden');
    expect(err.message).toMatch(message);
  });

  test('nor move a note she may change out of her namespaces', async () => {
    const err = await refused('lithos_write', { path: v.path.project, namespace: 'project/orion' }, ALICE);
    expect(err).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/project\/orion.*outside your namespace allowlist/) });
  });

  test('nor make a visible note user_private, or another agent\'s private note', async () => {
    expect((await refused('lithos_write', { path: v.path.shared, access_scope: 'user_private' }, ALICE)).code).toBe('forbidden');
    // erin wrote it: as agent_private it would be erin's alone, and alice could not read it back
    expect((await refused('lithos_write', { path: v.path.project, access_scope: 'agent_private' }, ALICE)).message).toMatch(/could not read it afterwards/);
  });

  test('an agent may not delete outside the namespaces it may write into', async () => {
    expect((await refused('lithos_delete', { path: v.path.shared }, DAVE)).message).toMatch(/notes\/shared.*outside your namespace allowlist/);
  });

  test('where the policy allows it, the same agent writes: its task, its allowlist, its own namespace', async () => {
    await v.engine.services.governance.policy.set({ ...v.engine.services.governance.policy.get(), agents: { ...v.engine.services.governance.policy.get().agents, alice: { namespaces: ['project/atlas', 'notes'] } } });
    for (const args of [
      { title: 'Task finding', content: 'x\n', namespace: `task/${v.taskT}`, access_scope: 'task' },
      { title: 'Atlas fact', content: 'x\n', namespace: 'project/atlas', access_scope: 'project' },
      { title: 'Scratch', content: 'x\n', namespace: 'agent/alice', access_scope: 'agent_private' },
    ]) {
      expect((await v.call('lithos_write', args, ALICE)).created).toBe(true);
    }
    expect((await v.call('lithos_write', { path: v.path.shared, content: 'Edited by alice.\n', expected_version: await version(v.path.shared) }, ALICE)).version).toBeDefined();
  });

  test('the person may write anywhere', async () => {
    const r = await v.call('lithos_write', { title: 'Mine', content: 'x\n', namespace: 'people/me', access_scope: 'user_private' }, HUMAN);
    expect(r.created).toBe(true);
  });
});

describe('not_found: a note the agent cannot see', () => {
  test('bob cannot write by id', async () => {
    expect((await refused('lithos_write', { id: v.id.agent_private, content: 'mine now\n' }, BOB)).code).toBe('not_found');
  });

  test.each<[string, (v: ScopeVault) => string]>([
    ["alice's private note", (s) => s.path.agent_private],
    ["the person's note", (s) => s.path.user_private],
  ])('bob writing by path over %s gets exactly the answer a free path beside it gets: existence does not leak', async (_what, pathOf) => {
    const taken = pathOf(v);
    const free = taken.replace(/[^/]+\.md$/, 'Nothing here.md');
    const a = await refused('lithos_write', { path: taken, content: 'mine now\n' }, BOB);
    const b = await refused('lithos_write', { path: free, content: 'mine now\n' }, BOB);
    expect(b.code).toBe(a.code);
    expect(a.message.replace(taken, '<path>')).toBe(b.message.replace(free, '<path>'));
  });

  test('in a hidden folder of a namespace bob may write, a taken path and a free one get the same answer', async () => {
    await v.engine.services.governance.policy.set({ ...v.engine.services.governance.policy.get(), hidden_folders: ['notes/shared'] });
    const taken = v.path.shared;
    const free = taken.replace(/[^/]+\.md$/, 'Nothing here.md');
    const a = await refused('lithos_write', { path: taken, content: 'mine now\n' }, BOB);
    const b = await refused('lithos_write', { path: free, content: 'mine now\n' }, BOB);
    expect([a.code, b.code]).toEqual(['forbidden', 'forbidden']);
    expect(a.message.replace(taken, '<path>')).toBe(b.message.replace(free, '<path>'));
  });

  // macOS and Windows disks ignore case, and macOS input arrives decomposed (NFD): another spelling of a
  // path is the same file, so it must meet the same checks — before, it skipped them and overwrote the note.
  test.each<[string, (p: string) => string]>([
    ['in another case', (p) => p.replace('people/me/Probe', 'People/ME/probe')],
    ['decomposed (NFD)', (p) => p.normalize('NFD')],
  ])("bob writing the person's note by its path spelled %s is refused, and nothing is written (a disk that ignores case)", async (_how, spell) => {
    v.vault.caseInsensitive = true;
    v.vault.put('people/me/Réflexions privées.md', '---\ntitle: Réflexions privées\nnamespace: people/me\naccess_scope: user_private\n---\nMine.\n');
    await v.engine.reconcile();
    for (const path of [spell(v.path.user_private), spell('people/me/Réflexions privées.md')]) {
      expect(['not_found', 'forbidden']).toContain((await refused('lithos_write', { path, content: 'mine now\n' }, BOB)).code);
    }
  });

  test("bob cannot delete alice's private note, by id or path", async () => {
    expect((await refused('lithos_delete', { id: v.id.agent_private }, BOB)).code).toBe('not_found');
    expect((await refused('lithos_delete', { path: v.path.agent_private }, BOB)).code).toBe('not_found');
  });
});
