import { canSee, agentViewer, type Viewer } from '../../shared/governance/gate';
import { covers, patternProblem } from '../../shared/governance/namespace-patterns';
import { CLOSED_POLICY, DEFAULT_POLICY, POLICY_FILE, RELOAD_MS, parsePolicy } from '../../shared/governance/policy';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { toolRefusal, visibleTools } from '../../shared/governance/tool-access';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller } from '../../shared/tools/types';
import { failure } from '../twins/error-code';
import { note, openHarness, type Harness } from '../engine/harness';

const A: ToolCaller = { kind: 'agent', agent_id: 'alice' };
const B: ToolCaller = { kind: 'agent', agent_id: 'bob' };
const enc = new TextEncoder();
type Listed = { notes: { path: string }[] };

async function open(files: Record<string, string>, policy?: unknown): Promise<Harness & { list(c: ToolCaller): Promise<string[]> }> {
  const h = await openHarness(files);
  if (policy !== undefined) await h.engine.services.governance.policy.set(policy);
  await h.engine.reconcile();
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine }));
  return { ...h, list: async (c) => ((await tools.call('lithos_list', { limit: 200 }, c)) as Listed).notes.map((n) => n.path) };
}

const project = (ns: string) => note({ namespace: ns, access_scope: 'project' }, `In ${ns}.\n`);

describe('namespace patterns compare whole segments', () => {
  test.each([
    ['project/a', 'project/a', true],
    ['project/a', 'project/a/sub', true],
    ['project/a', 'project/ab', false],
    ['project/a', 'project', false],
    ['project/*', 'project/ab', true],
    ['project/*', 'project', false],
    ['project/*/public', 'project/x/public/y', true],
    ['project/*/public', 'project/x/private', false],
    ['**/public', 'a/b/public', true],
    ['**/public', 'public', true],
    ['*', 'anything/at/all', true],
  ])('%s covers %s: %s', (pattern, ns, expected) => {
    expect(covers(pattern, ns)).toBe(expected);
  });

  test.each(['', ' project', 'project/', 'proj*', 'a//b', 'a/../b'])('"%s" is refused as a pattern', (p) => {
    expect(patternProblem(p)).not.toBeNull();
  });
});

describe('project scope follows the allowlist', () => {
  const files = {
    'project/a/A.md': project('project/a'),
    'project/ab/AB.md': project('project/ab'),
    'project/a/deep/D.md': project('project/a/deep'),
  };

  test('prefix confusion: an allowlist of project/a covers project/a and below, never project/ab', async () => {
    const h = await open(files, { default_namespaces: [], agents: { alice: { namespaces: ['project/a'] } } });
    expect(await h.list(A)).toEqual(['project/a/A.md', 'project/a/deep/D.md']);
    const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine }));
    expect((await failure(tools.call('lithos_read', { path: 'project/ab/AB.md' }, A))).code).toBe('not_found');
    await h.engine.close();
  });

  test('an agent without its own entry gets default_namespaces; an empty one sees no project note', async () => {
    const h = await open(files, { default_namespaces: ['project/ab'], agents: { alice: { namespaces: [] } } });
    expect(await h.list(B)).toEqual(['project/ab/AB.md']);
    expect(await h.list(A)).toEqual([]);
    await h.engine.close();
  });

  test('with no policy file every agent may see every project note (default_namespaces ["*"])', async () => {
    const h = await open(files);
    expect(h.engine.services.governance.policy.get()).toEqual(DEFAULT_POLICY);
    expect(await h.list(A)).toEqual(['project/a/A.md', 'project/a/deep/D.md', 'project/ab/AB.md']);
    await h.engine.close();
  });
});

describe('shared patterns', () => {
  const files = {
    'open/P.md': note({ namespace: 'open', access_scope: 'project' }, 'p\n'),
    'open/T.md': note({ namespace: 'open', access_scope: 'task', author: 'erin' }, 't\n'),
    'open/Priv.md': note({ namespace: 'open', access_scope: 'agent_private', author: 'erin' }, 'x\n'),
    'open/Me.md': note({ namespace: 'open', access_scope: 'user_private' }, 'me\n'),
    'closed/P.md': note({ namespace: 'closed', access_scope: 'project' }, 'c\n'),
  };

  test('make a namespace readable by every agent whatever the scope, except user_private', async () => {
    const h = await open(files, { default_namespaces: [], shared_patterns: ['open'] });
    expect(await h.list(A)).toEqual(['open/P.md', 'open/Priv.md', 'open/T.md']);
    await h.engine.close();
  });

  test('are opt-in: without them the same agent sees none of these', async () => {
    const h = await open(files, { default_namespaces: [] });
    expect(await h.list(A)).toEqual([]);
    await h.engine.close();
  });
});

describe('fail closed', () => {
  const viewer: Viewer = { ...agentViewer('alice'), namespaces: ['*'], shared_patterns: ['*'] };

  test.each(['secret', 'Shared', '', 'public'])('an access_scope the gate does not know ("%s") is hidden from agents, shown to the person', (scope) => {
    expect(canSee(viewer, { namespace: 'x', access_scope: scope, author: 'alice' })).toBe(false);
    expect(canSee({ kind: 'human', agent_id: null, task_id: null }, { namespace: 'x', access_scope: scope, author: null })).toBe(true);
  });

  test('an unresolved agent viewer (no allowlist) sees no project note', () => {
    expect(canSee(agentViewer('alice'), { namespace: 'project/a', access_scope: 'project', author: null })).toBe(false);
  });

  test('a damaged policy file gives the closed policy and a warning, until it is fixed', async () => {
    const h = await openHarness({ 'project/a/A.md': project('project/a') });
    await h.engine.close();
    await h.blobs.writeAtomic(POLICY_FILE, enc.encode('{ "default_namespaces": ["*"], '));
    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs });
    await again.engine.reconcile();
    expect(again.engine.services.governance.policy.get()).toEqual(CLOSED_POLICY);
    expect(again.engine.warnings.some((w) => w.includes('policy.json is not valid JSON'))).toBe(true);
    const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: again.engine }));
    expect(((await tools.call('lithos_list', {}, A)) as Listed).notes).toEqual([]);
    // The damaged file may have made agents read-only or switched tools off: while it is damaged they only read.
    expect((await failure(tools.call('lithos_write', { title: 'T', content: 'x\n', namespace: 'shared' }, A))).code).toBe('forbidden');
    await again.engine.close();
  });

  test('a policy damaged before the process started still hides the folders its last valid version hid', async () => {
    const h = await openHarness({ 'private/Diary.md': project('shared'), 'Open.md': project('shared') });
    await h.engine.services.governance.policy.set({ hidden_folders: ['private'] });
    await h.engine.close();
    await h.blobs.writeAtomic(POLICY_FILE, enc.encode('{ "hidden_fold'));
    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs });
    await again.engine.reconcile();
    expect(again.engine.services.governance.policy.get()).toMatchObject({ hidden_folders: ['private'], agent_tools: { read_only: true } });
    const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: again.engine }));
    expect((await failure(tools.call('lithos_read', { path: 'private/Diary.md' }, A))).code).toBe('not_found');
    await again.engine.close();
  });

  test('a policy damaged while running keeps the folders hidden before, and any valid one the damaged file lists', async () => {
    const h = await openHarness({ 'private/Diary.md': project('shared'), 'work/secret/Plan.md': project('shared') });
    await h.engine.services.governance.policy.set({ hidden_folders: ['private'] });
    await h.blobs.writeAtomic(POLICY_FILE, enc.encode('{ "hidden_folders": ["private", "work/secret"], "agent_tools": { "read_only": "yes" } }'));
    await h.engine.services.governance.policy.reload();
    expect(h.engine.services.governance.policy.get()).toMatchObject({ hidden_folders: ['private', 'work/secret'], agent_tools: { read_only: true }, default_namespaces: [] });
    await h.blobs.writeAtomic(POLICY_FILE, enc.encode('{ "hidden_fold'));
    await h.engine.services.governance.policy.reload();
    expect(h.engine.services.governance.policy.get().hidden_folders).toEqual(['private', 'work/secret']);
    // An edit made meanwhile (the settings tab) must not save the fallback as the vault's policy.
    await expect(h.engine.services.governance.policy.set({ ...h.engine.services.governance.policy.get(), propose_namespaces: ['decisions'] })).rejects.toMatchObject({ code: 'store_corrupt', message: expect.stringMatching(/Fix or delete \.lithos\/policy\.json by hand first/) });
    expect(new TextDecoder().decode((await h.blobs.read(POLICY_FILE))!)).toBe('{ "hidden_fold');
    await h.engine.close();
  });

  describe('a deleted policy.json hides nothing less than the last policy did', () => {
    const files = { 'private/h.md': project('shared'), 'Open.md': note({ access_scope: 'shared' }, 'Open to all.\n') };

    test('deleted while closed: hidden folders stay hidden, agents read only, with a notice', async () => {
      const h = await openHarness(files);
      await h.engine.services.governance.policy.set({ hidden_folders: ['private'] });
      await h.engine.close();
      await h.blobs.remove(POLICY_FILE);
      const again = await openHarness({}, { vault: h.vault, blobs: h.blobs });
      await again.engine.reconcile();
      expect(again.engine.services.governance.policy.get()).toMatchObject({ hidden_folders: ['private'], agent_tools: { read_only: true }, default_namespaces: [] });
      expect(again.engine.warnings.some((w) => w.includes('policy.json is missing, but a policy was in force before'))).toBe(true);
      const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: again.engine }));
      const found = (await tools.call('lithos_search', { query: 'shared', k: 20 }, A)) as { results: { path: string }[] };
      expect(found.results.map((r) => r.path)).not.toContain('private/h.md');
      expect((await failure(tools.call('lithos_read', { path: 'private/h.md' }, A))).code).toBe('not_found');
      expect((await failure(tools.call('lithos_write', { title: 'T', content: 'x\n', namespace: 'shared' }, A))).code).toBe('forbidden');
      await again.engine.close();
    });

    test('deleted while running: the next reload fails closed too', async () => {
      const h = await openHarness(files);
      await h.engine.services.governance.policy.set({ hidden_folders: [] });
      await h.blobs.remove(POLICY_FILE);
      await h.engine.services.governance.policy.reload();
      expect(h.engine.services.governance.policy.get()).toEqual(CLOSED_POLICY);
      expect(h.engine.services.governance.policy.problem).toMatch(/is missing/);
      await h.engine.close();
    });

    test('saving a policy ends the fallback (a missing file is not a damaged one)', async () => {
      const h = await openHarness(files);
      await h.engine.services.governance.policy.set({ hidden_folders: ['private'] });
      await h.blobs.remove(POLICY_FILE);
      await h.engine.services.governance.policy.reload();
      await h.engine.services.governance.policy.set({ hidden_folders: ['private'], default_namespaces: ['*'] });
      expect(h.engine.services.governance.policy.problem).toBeNull();
      expect(h.engine.services.governance.policy.get()).toMatchObject({ hidden_folders: ['private'], agent_tools: { read_only: false } });
      await h.engine.close();
    });

    test('a vault whose policy.json predates the witness gets one at first read, so a later deletion fails closed', async () => {
      const h = await openHarness(files);
      await h.blobs.writeAtomic(POLICY_FILE, enc.encode('{ "propose_namespaces": ["decisions"] }'));
      await h.engine.services.governance.policy.reload();
      expect(await h.blobs.read('policy.hidden.json')).not.toBeNull();
      await h.blobs.remove(POLICY_FILE);
      await h.engine.services.governance.policy.reload();
      expect(h.engine.services.governance.policy.get()).toEqual(CLOSED_POLICY);
      await h.engine.close();
    });

    test('a vault that never had a policy gets the defaults, with no notice', async () => {
      const h = await openHarness(files);
      expect(h.engine.services.governance.policy.get()).toEqual(DEFAULT_POLICY);
      expect(h.engine.services.governance.policy.problem).toBeNull();
      await h.engine.close();
    });
  });
});

describe('the policy is a loaded object', () => {
  test('set validates, persists, applies at once and is audited', async () => {
    const h = await open({ 'project/a/A.md': project('project/a') });
    expect(await h.list(A)).toEqual(['project/a/A.md']);
    await h.engine.services.governance.policy.set({ default_namespaces: ['elsewhere'] });
    expect(await h.list(A)).toEqual([]);
    const saved = JSON.parse(new TextDecoder().decode((await h.blobs.read(POLICY_FILE))!));
    expect(saved).toEqual({ ...DEFAULT_POLICY, default_namespaces: ['elsewhere'] });
    expect((await h.engine.services.governance.audit.recent({ action: 'policy.set' }))[0]).toMatchObject({ actor: { kind: 'human', id: null }, target: POLICY_FILE });
    await h.engine.close();
  });

  test("person_notes (the trust boundary) defaults to propose, takes allow or refuse, and nothing else; closed refuses", () => {
    expect(parsePolicy({}).person_notes).toBe('propose');
    expect(DEFAULT_POLICY.person_notes).toBe('propose');
    expect(CLOSED_POLICY.person_notes).toBe('refuse');
    for (const v of ['allow', 'refuse', 'propose'] as const) expect(parsePolicy({ person_notes: v }).person_notes).toBe(v);
    expect(() => parsePolicy({ person_notes: 'sometimes' })).toThrow(/person_notes/);
  });

  test('an invalid policy is refused with every problem named, and the one in force stays', async () => {
    const h = await open({}, { default_namespaces: ['project/a'] });
    const err = await failure(h.engine.services.governance.policy.set({ default_namespaces: ['proj*'], agents: { bob: { namespaces: 'x' } }, extra: 1 }));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toMatch(/default_namespaces\.0: "proj\*"/);
    expect(err.message).toMatch(/agents\.bob\.namespaces/);
    expect(err.message).toMatch(/extra/);
    expect(h.engine.services.governance.policy.get().default_namespaces).toEqual(['project/a']);
    await h.engine.close();
  });

  test('a hand edit of policy.json applies from the first tool call after the reload interval', async () => {
    const h = await open({ 'project/a/A.md': project('project/a') });
    await h.blobs.writeAtomic(POLICY_FILE, enc.encode(JSON.stringify({ default_namespaces: [] })));
    expect(await h.list(A)).toEqual(['project/a/A.md']); // read less than RELOAD_MS ago: not yet
    h.clock.advance(RELOAD_MS);
    expect(await h.list(A)).toEqual([]);
    await h.engine.close();
  });

  test('parsePolicy fills absent fields with the defaults', () => {
    expect(parsePolicy({})).toEqual(DEFAULT_POLICY);
  });
});

describe('agent_tools: which tools agents may call, whatever the mode', () => {
  const call = (h: Harness, name: string, args: unknown) => createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine })).call(name, args, A);

  test('a disabled tool is refused before it runs; the others are not', async () => {
    const h = await open({ 'project/a/A.md': project('project/a') }, { agent_tools: { disabled: ['lithos_delete'] } });
    const err = await failure(call(h, 'lithos_delete', { path: 'project/a/A.md' }));
    expect(err).toMatchObject({ code: 'forbidden', data: { tool: 'lithos_delete', read_only: false } });
    expect(new TextDecoder().decode(await h.vault.readBytes('project/a/A.md'))).toContain('In project/a.');
    expect(await h.list(A)).toEqual(['project/a/A.md']);
    await h.engine.close();
  });

  test('read_only refuses every tool that writes, by its annotations, and leaves every read-only tool', async () => {
    const h = await open({ 'project/a/A.md': project('project/a') }, { agent_tools: { read_only: true } });
    const rules = h.engine.services.governance.policy.get().agent_tools;
    for (const def of TOOL_CATALOG) expect(toolRefusal(def, rules) === null).toBe(def.annotations.readOnlyHint === true);
    expect(visibleTools(TOOL_CATALOG, rules).length).toBeGreaterThan(5);
    const write = await failure(call(h, 'lithos_write', { title: 'T', content: 'x', namespace: 'project/a' }));
    expect(write.code).toBe('forbidden');
    expect(write.message).toContain('agents are read-only in this vault');
    expect(await h.list(A)).toEqual(['project/a/A.md']);
    await h.engine.close();
  });

  test('only lithos_* names are accepted, and the defaults allow everything', async () => {
    expect(DEFAULT_POLICY.agent_tools).toEqual({ read_only: false, disabled: [] });
    expect(() => parsePolicy({ agent_tools: { disabled: ['rm -rf'] } })).toThrow(/agent_tools\.disabled\.0: must be a lithos_\* tool name/);
    expect(() => parsePolicy({ agent_tools: { read_only: 'yes' } })).toThrow(/agent_tools\.read_only/);
  });
});
