import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller } from '../../shared/tools/types';
import { parsePolicy } from '../../shared/governance/policy';
import { note, openHarness, type Harness } from '../engine/harness';
import { failure } from '../twins/error-code';

/**
 * Policy `hidden_folders` (the plugin's settings → Agents bridge → Hidden folders): no agent sees a note
 * under such a folder, whatever its scope or namespace — not by read, search, list, tags, links, stats or
 * retrieval — and none may write there. The person still sees everything.
 */

const AGENT: ToolCaller = { kind: 'agent', agent_id: 'coder' };
const HUMAN: ToolCaller = { kind: 'human', agent_id: null };
const SECRET = 'private/Salary review.md';

let h: Harness;
const call = (name: string, args: unknown, caller: ToolCaller): Promise<any> => createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine })).call(name, args, caller); // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results, checked by assertions

beforeEach(async () => {
  h = await openHarness({
    // Shared scope and a namespace of its own: only the folder hides it.
    [SECRET]: note({ title: 'Salary review', namespace: 'hr', access_scope: 'shared', tags: ['zebra'] }, 'Zebra salary review notes, kept private.\n[[Public plan]]\n'),
    'privateer/Ship.md': note({ title: 'Ship', tags: ['zebra'] }, 'Zebra ship log (a folder that only starts like the hidden one).\n'),
    'Public plan.md': note({ title: 'Public plan', tags: ['zebra'] }, 'Zebra public plan.\n[[Salary review]]\n'),
  });
  await h.engine.reconcile();
  await h.engine.services.governance.policy.set({ hidden_folders: ['/private/'] });
});
afterEach(async () => {
  await h.engine.close();
});

describe('hidden folders', () => {
  test('the policy keeps folder paths, trimmed of slashes; ".." or an empty path is refused', () => {
    expect(h.engine.services.governance.policy.get().hidden_folders).toEqual(['private']);
    expect(() => parsePolicy({ hidden_folders: ['../x'] })).toThrow(/vault folder path/);
    expect(() => parsePolicy({ hidden_folders: ['  '] })).toThrow(/vault folder path/);
  });

  test('an agent cannot read, search, list, count or retrieve a note under a hidden folder; the person can', async () => {
    expect((await failure(call('lithos_read', { path: SECRET }, AGENT))).code).toBe('not_found');
    expect((await call('lithos_read', { path: SECRET }, HUMAN)).path).toBe(SECRET);

    const paths = (r: unknown): string => JSON.stringify(r);
    expect(paths(await call('lithos_search', { query: 'zebra salary review' }, AGENT))).not.toContain(SECRET);
    expect(paths(await call('lithos_search', { query: 'zebra salary review' }, HUMAN))).toContain(SECRET);
    expect(paths(await call('lithos_list', {}, AGENT))).not.toContain('Salary review');
    expect(paths(await call('lithos_list', {}, AGENT))).toContain('privateer/Ship.md');
    expect(paths(await call('lithos_links', { path: 'Public plan.md' }, AGENT))).not.toContain(SECRET);
    const tags = (await call('lithos_tags', {}, AGENT)) as { tags: { tag: string; count: number }[] };
    expect(tags.tags.find((t) => t.tag === 'zebra')?.count).toBe(2);
    expect(paths(await call('lithos_search', { query: 'zebra salary review' }, AGENT))).toContain('Public plan.md');
    expect(paths(await call('lithos_retrieve', { query_text: 'zebra salary review' }, AGENT))).not.toContain(SECRET);
    expect(paths(await call('lithos_retrieve', { query_text: 'zebra salary review' }, HUMAN))).toContain(SECRET);
  });

  test('an agent may not write into a hidden folder, and nothing is written', async () => {
    const err = await failure(call('lithos_write', { path: 'private/New.md', content: 'x\n' }, AGENT));
    expect(['forbidden', 'not_found']).toContain(err.code);
    expect(h.vault.paths()).not.toContain('private/New.md');
  });

  test('the hidden folder in another case or Unicode form is hidden too (one folder on macOS and Windows)', async () => {
    await h.engine.services.governance.policy.set({ hidden_folders: ['private', 'Privé'] });
    for (const path of ['Private/New.md', 'PRIVATE/Salary review.md', 'prive\u0301/New.md']) {
      expect((await failure(call('lithos_write', { path, content: 'x\n' }, AGENT))).code).toBe('forbidden');
    }
    expect(h.vault.paths().filter((p) => p !== SECRET && /priv/i.test(p) && !p.startsWith('privateer/'))).toEqual([]);
    expect((await failure(call('lithos_read', { path: 'PRIVATE/Salary review.md' }, AGENT))).code).toBe('not_found');
  });

  test('emptying the list shows the note to agents again, from the next call', async () => {
    await h.engine.services.governance.policy.set({ hidden_folders: [] });
    expect((await call('lithos_read', { path: SECRET }, AGENT)).path).toBe(SECRET);
  });
});
