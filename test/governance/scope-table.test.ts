import type { ToolCaller } from '../../shared/tools/types';
import { ALICE, BOB, CAROL, DAVE, HUB, HUMAN, PROBES, tagOf, openScopeVault, type Probe, type ScopeVault } from './scope-vault';

/**
 * The scope × tool table: every read tool, asked by every kind of caller, returns exactly the probe notes
 * the policy lets that caller see — nothing more (no leak), nothing less (the gate is not over-eager).
 *
 *                 alice (owner,   bob (other    carol (other   dave (other    the person
 *                 on task T)      agent, on T)  task U)        project)
 * shared          yes             yes           yes            yes            yes
 * project         yes             yes           yes            no             yes
 * task            yes             yes           no             no             yes
 * agent_private   yes             no            no             no             yes
 * user_private    no              no            no             no             yes
 * unknown scope   no              no            no             no             yes
 */
const CALLERS: [name: string, caller: ToolCaller, sees: Probe[]][] = [
  ['same agent (alice)', ALICE, ['shared', 'project', 'task', 'agent_private']],
  ['other agent on the task (bob)', BOB, ['shared', 'project', 'task']],
  ['other task (carol)', CAROL, ['shared', 'project']],
  ['other project (dave)', DAVE, ['shared']],
  ['the person', HUMAN, [...PROBES]],
];

let v: ScopeVault;
/** Per probe: a receipt of the person's retrieval that returned that probe alone. */
const receiptOf = {} as Record<Probe, string>;

beforeAll(async () => {
  v = await openScopeVault();
  for (const p of PROBES) {
    const ns = v.engine.services.notes.note(v.path[p])!.cached.meta.namespace;
    const r = await v.call('lithos_retrieve', { query_text: 'zebra striped probe', namespace_filter: [ns] }, HUMAN);
    expect(r.nodes.map((n: { id: string }) => n.id)).toEqual([v.id[p]]);
    receiptOf[p] = r.receipt_id;
  }
});
afterAll(async () => {
  await v.engine.close();
});

type Seen = (caller: ToolCaller) => Promise<Set<Probe>>;

const byPath = (paths: string[]): Set<Probe> => new Set(PROBES.filter((p) => paths.includes(v.path[p])));
const byId = (ids: string[]): Set<Probe> => new Set(PROBES.filter((p) => ids.includes(v.id[p])));

/** Calls once per probe; a probe is seen when the call succeeds, hidden when it is not_found. */
async function perProbe(tool: string, args: (p: Probe) => Record<string, unknown>, caller: ToolCaller): Promise<Set<Probe>> {
  const seen = new Set<Probe>();
  for (const p of PROBES) {
    try {
      await v.call(tool, args(p), caller);
      seen.add(p);
    } catch (err) {
      expect((err as { code: string }).code).toBe('not_found');
    }
  }
  return seen;
}

const QUERY = 'zebra striped probe';

const TOOLS: [tool: string, seen: Seen][] = [
  ['lithos_search', async (c) => byPath((await v.call('lithos_search', { query: QUERY, k: 50 }, c)).results.map((h: { path: string }) => h.path))],
  ['lithos_semantic', async (c) => byPath((await v.call('lithos_semantic', { query: QUERY, k: 50 }, c)).results.map((h: { path: string }) => h.path))],
  ['lithos_read', (c) => perProbe('lithos_read', (p) => ({ path: v.path[p] }), c)],
  ['lithos_list', async (c) => byPath((await v.call('lithos_list', { limit: 200 }, c)).notes.map((n: { path: string }) => n.path))],
  ['lithos_links', async (c) => byPath((await v.call('lithos_links', { path: HUB, direction: 'outgoing' }, c)).outgoing.map((n: { path: string }) => n.path))],
  [
    'lithos_tags',
    async (c) => {
      const tags: { tag: string; count: number }[] = (await v.call('lithos_tags', {}, c)).tags;
      const seen = new Set(PROBES.filter((p) => tags.some((t) => t.tag === tagOf(p))));
      // the tag every probe carries is counted over visible notes only
      expect(tags.find((t) => t.tag === 'zebra')?.count ?? 0).toBe(seen.size);
      return seen;
    },
  ],
  ['lithos_related', async (c) => byPath((await v.call('lithos_related', { path: HUB, k: 50 }, c)).related.map((n: { path: string }) => n.path))],
  [
    'lithos_receipts',
    async (c) => {
      const shown: string[] = (await v.call('lithos_receipts', { limit: 100 }, c)).receipts.map((r: { receipt_id: string }) => r.receipt_id);
      return new Set(PROBES.filter((p) => shown.includes(receiptOf[p])));
    },
  ],
  [
    'lithos_node_stats',
    async (c) => {
      const seen = await perProbe('lithos_node_stats', (p) => ({ path: v.path[p] }), c);
      // the hub's edge counts do not count edges into hidden probes
      expect((await v.call('lithos_node_stats', { path: HUB }, c)).edges.out).toBe(seen.size);
      return seen;
    },
  ],
  ['lithos_edge_list', async (c) => byPath((await v.call('lithos_edge_list', { node: HUB }, c)).edges.map((e: { to_path: string }) => e.to_path))],
  [
    'lithos_stats',
    async (c) => {
      const s = await v.call('lithos_stats', {}, c);
      const seen = new Set(PROBES.filter((p) => v.engine.services.notes.note(v.path[p])!.cached.meta.namespace in s.by_namespace));
      expect(s.notes).toBe(1 + seen.size); // the hub and the visible probes
      return seen;
    },
  ],
  ['lithos_retrieve', async (c) => byId((await v.call('lithos_retrieve', { query_text: QUERY, max_context_nodes: 20 }, c)).nodes.map((n: { id: string }) => n.id))],
];

describe.each(TOOLS)('%s', (_tool, seen) => {
  test.each(CALLERS)('%s sees exactly its scopes', async (_name, caller, expected) => {
    const got = await seen(caller);
    expect(Object.fromEntries(PROBES.map((p) => [p, got.has(p)]))).toEqual(Object.fromEntries(PROBES.map((p) => [p, expected.includes(p)])));
  });
});
