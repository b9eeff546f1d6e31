import { note } from '../engine/harness';
import { openTools } from '../tools/fixture';

/**
 * An agent never learns of a decision it may not see through the ledger: not in the target list, a suggestion,
 * a history, a write's answer or a conflict it can list. One hidden decision per way of being hidden, each with
 * its own target and a token in its title and body.
 */

const HIDDEN: Record<string, { path: string; fm: Record<string, unknown> }> = {
  agent_private: { path: 'agent/agent-b/B.md', fm: { access_scope: 'agent_private', author: 'agent-b' } },
  user_private: { path: 'people/P.md', fm: { access_scope: 'user_private', author: 'human' } },
  other_project: { path: 'project/orion/O.md', fm: { namespace: 'project/orion', access_scope: 'project' } },
  hidden_folder: { path: 'vault-secret/S.md', fm: {} },
};
const token = (k: string) => `qx${k.replace(/_/g, '')}zz`;
const files: Record<string, string> = {};
for (const [k, { path, fm }] of Object.entries(HIDDEN)) {
  files[path] = note({ title: `Decision ${token(k)}`, note_type: 'decision', target: `${k} store`, ...fm }, `Chosen: ${token(k)}.\n`);
}

test.each(Object.keys(HIDDEN))('a decision hidden as %s is never named to an agent', async (k) => {
  const h = await openTools(files);
  await h.engine.services.governance.policy.set({
    version: 1,
    default_namespaces: [],
    agents: { 'agent-a': { namespaces: ['project/atlas'] } },
    shared_patterns: [],
    propose_namespaces: [],
    hidden_folders: ['vault-secret'],
  });
  const shown: unknown[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await h.call(name, args).catch((e: { code: string; message: string; data: unknown }) => ({ code: e.code, message: e.message, data: e.data }));
    shown.push(r);
    return r;
  };
  expect(await call('lithos_targets', {})).toMatchObject({ targets: [], total: 0 });
  expect((await call('lithos_targets', { suggest: `${k}store` })).suggestions).toEqual([]);
  expect(await call('lithos_targets', { history: `${k} store` })).toMatchObject({ code: 'not_found' });
  const w = await call('lithos_write', { title: 'Mine', namespace: 'project/atlas', note_type: 'decision', target: `${k} stores`, content: 'Mine.\n' });
  expect(w).toMatchObject({ path: 'project/atlas/Mine.md' });
  expect(await call('lithos_write', { title: 'Mine 2', namespace: 'project/atlas', content: 'x\n', supersedes: [HIDDEN[k].path] })).toMatchObject({ code: 'not_found' });
  expect((await call('lithos_conflict_list', {})).conflicts).toEqual([]);
  const text = JSON.stringify(shown) + h.vault.text('project/atlas/Mine.md');
  expect(text).not.toContain(token(k));
  expect(h.vault.text('project/atlas/Mine.md')).not.toContain('lithos-conflict');
  expect(text).not.toContain(h.engine.services.notes.note(HIDDEN[k].path)!.nodeId);
  // The person sees the conflict between the two.
  expect(h.engine.services.conflicts.list()).toMatchObject([{ a: (w as { id: string }).id, evidence: { rule: 'target' } }]);
  await h.engine.close();
});
