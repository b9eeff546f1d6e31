import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller, ToolDef, ToolDispatcher } from '../../shared/tools/types';
import { note, openHarness, type Harness } from '../engine/harness';
import { MemoryVault } from '../twins/memory-vault';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { FakeClock } from '../twins/fake-clock';

/**
 * A vault for walking the whole tool catalog: one probe note per thing an agent may be kept from (each access
 * scope, a folder the policy hides, a note of another task), each carrying a unique token in its title, body
 * and tag, linked from a hub, joined to the hub by a typed edge and by a conflict, named in a finding,
 * and returned alone by one of the person's retrievals. Agents' keys are issued, so a caller without one is
 * unverified.
 */

export type Probe = 'shared' | 'project' | 'task' | 'other_task' | 'agent_private' | 'user_private' | 'unknown_scope' | 'hidden_folder';
export const PROBES: Probe[] = ['shared', 'project', 'task', 'other_task', 'agent_private', 'user_private', 'unknown_scope', 'hidden_folder'];

export interface Caller {
  name: string;
  caller: ToolCaller;
  /** The probes the policy lets it see: written out, not derived from the gate under test. */
  sees: Probe[];
}

export interface ProbeNote {
  probe: Probe;
  id: string;
  path: string;
  title: string;
  /** The alias the hub links it by. */
  alias: string;
  token: string;
  namespace: string;
  folder: string;
  /** hub → probe `supports` edge, and the hub ↔ probe conflict. */
  edgeId: string;
  conflictId: string;
  /** The person's retrieval that returned this probe alone. */
  receiptId: string;
}

export interface CatalogVault extends Harness {
  /** The same vault and stores as they were when built, opened anew: each tool's walk starts from it. */
  fresh(): Promise<CatalogVault>;
  tools: ToolDispatcher;
  catalog: readonly ToolDef[];
  callers: Caller[];
  probes: Record<Probe, ProbeNote>;
  hub: { id: string; path: string };
  taskT: string;
  taskU: string;
}

const HIDDEN = 'vault-secret';

export async function openCatalogVault(catalog: readonly ToolDef[] = TOOL_CATALOG): Promise<CatalogVault> {
  const h = await openHarness({});
  const e = h.engine;
  const co = e.services.coordination;
  for (const a of ['alice', 'bob', 'carol', 'dave', 'mallory']) await co.ensureAgent(a);
  const taskT = (await co.createTask({ created_by: 'bob', title: 'Task T' })).id;
  const taskU = (await co.createTask({ created_by: 'carol', title: 'Task U' })).id;
  await co.claim({ task_id: taskT, aspect: 'tests', agent: 'alice' });
  await e.services.governance.policy.set({
    version: 1,
    default_namespaces: [],
    agents: { alice: { namespaces: ['project/atlas'] }, bob: { namespaces: ['project/atlas'] }, carol: { namespaces: ['project/atlas'] }, dave: { namespaces: ['project/orion'] } },
    shared_patterns: [],
    propose_namespaces: [],
    hidden_folders: [HIDDEN],
  });
  const key: Record<string, string> = {};
  for (const a of ['alice', 'bob', 'carol', 'dave']) key[a] = await e.services.governance.agentKeys.issue(a);

  const token = (p: Probe): string => `qx${p.replace(/_/g, '')}zz`;
  // The hub (shared) links each probe by an alias without its token: the hub's own text must not carry it.
  const linkName = (p: Probe): string => `hub link ${p.replace(/_/g, ' ')}`;
  // Each namespace ends in the probe's token, so a namespace shown (stats, tags by namespace…) counts as showing it.
  const within = (ns: string, p: Probe): string => `${ns}/${token(p)}`;
  const spec: Record<Probe, { ns: string; fm: Record<string, unknown> }> = {
    shared: { ns: within('notes/shared', 'shared'), fm: { access_scope: 'shared', author: 'erin' } },
    project: { ns: within('project/atlas', 'project'), fm: { access_scope: 'project', author: 'erin' } },
    task: { ns: within(`task/${taskT}`, 'task'), fm: { access_scope: 'task', author: 'erin' } },
    other_task: { ns: within(`task/${taskU}`, 'other_task'), fm: { access_scope: 'task', author: 'erin' } },
    agent_private: { ns: within('agent/alice', 'agent_private'), fm: { access_scope: 'agent_private', author: 'alice' } },
    user_private: { ns: within('people/me', 'user_private'), fm: { access_scope: 'user_private' } },
    unknown_scope: { ns: within('notes/odd', 'unknown_scope'), fm: { access_scope: 'secretish', author: 'erin' } },
    hidden_folder: { ns: within(HIDDEN, 'hidden_folder'), fm: { access_scope: 'shared', author: 'erin' } },
  };
  for (const p of PROBES) {
    const t = token(p);
    h.vault.put(`${spec[p].ns}/Probe ${t}.md`, note({ title: `Probe ${t}`, namespace: spec[p].ns, tags: ['zebra', t], aliases: [linkName(p)], ...spec[p].fm }, `Zebra probe ${t}: striped knowledge about ${t}.\n`), false);
  }
  const hubPath = 'hub/Hub.md';
  h.vault.put(hubPath, note({ title: 'Hub', tags: ['hub'], access_scope: 'shared' }, `Hub of the zebra probes.\n${PROBES.map((p) => `[[${linkName(p)}]]`).join('\n')}\n`), false);
  await e.reconcile();
  const hubId = e.services.notes.note(hubPath)!.nodeId;

  const probes = {} as Record<Probe, ProbeNote>;
  for (const p of PROBES) {
    const path = `${spec[p].ns}/Probe ${token(p)}.md`;
    const id = e.services.notes.note(path)!.nodeId;
    const edge = await e.services.learning.memory.edges.upsert({ from_id: hubId, to_id: id, type: 'supports', weight: 0.5, namespace: 'hub', provenance_actor: 'test', provenance_type: 'human', evidence: null, conflict_state: null });
    const conflict = await e.services.conflicts.open({ a: hubId, b: id, evidence: { why: 'catalog walk' }, actor: { kind: 'human', id: null } });
    await co.postFinding({ task_id: taskT, agent: 'bob', summary: `About a probe`, knowledge_id: id });
    const r = await e.services.retrieval.retrieve({ query_text: `zebra ${token(p)}`, namespace_filter: [spec[p].ns] }, { viewer: e.services.governance.viewerFor({ kind: 'human', agent_id: null }) });
    if (r.nodes.length !== 1 || r.nodes[0].id !== id) throw new Error(`setup: the person's retrieval for ${p} returned ${r.nodes.map((n) => n.id).join(', ')}`);
    probes[p] = { probe: p, id, path, title: `Probe ${token(p)}`, alias: linkName(p), token: token(p), namespace: spec[p].ns, folder: spec[p].ns, edgeId: edge.edge_id, conflictId: conflict.conflict.edge_id, receiptId: r.receipt_id! };
  }

  const agent = (id: string, withKey = true): ToolCaller => ({ kind: 'agent', agent_id: id, ...(withKey ? { key: key[id] } : {}) });
  const callers: Caller[] = [
    { name: 'alice (owner, on task T)', caller: agent('alice'), sees: ['shared', 'project', 'task', 'agent_private'] },
    { name: 'bob (other agent, created task T)', caller: agent('bob'), sees: ['shared', 'project', 'task'] },
    { name: 'carol (on task U)', caller: agent('carol'), sees: ['shared', 'project', 'other_task'] },
    { name: 'dave (other project)', caller: agent('dave'), sees: ['shared'] },
    { name: 'mallory (no key: unverified)', caller: agent('mallory', false), sees: ['shared'] },
    { name: 'an agent without an id', caller: { kind: 'agent', agent_id: null }, sees: ['shared'] },
  ];
  await e.close();
  const files = Object.fromEntries(h.vault.paths().map((p) => [p, h.vault.text(p)!]));
  const blobs = new Map(h.blobs.files);
  const now = h.clock.now();
  const fresh = async (): Promise<CatalogVault> => {
    const b = new MemoryBlobStore();
    for (const [k, data] of blobs) b.files.set(k, data.slice());
    const again = await openHarness({}, { vault: new MemoryVault(files), blobs: b, clock: new FakeClock(now) });
    await again.engine.reconcile();
    const tools = createDispatcher(catalog, () => ({ gateway: again.engine, deleteTo: 'trash_folder' }));
    return { ...again, fresh, tools, catalog, callers, probes, hub: { id: hubId, path: hubPath }, taskT, taskU };
  };
  return fresh();
}
