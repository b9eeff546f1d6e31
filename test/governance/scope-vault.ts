import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller, ToolDispatcher } from '../../shared/tools/types';
import { note, openHarness, type Harness } from '../engine/harness';

/**
 * A vault with one probe note per access scope, all reachable from a shared hub note (wiki-links and typed
 * edges), and five callers:
 * - alice: owns the agent_private probe, claimed an aspect of task T, allowlist project/atlas;
 * - bob: another agent, created task T, same allowlist;
 * - carol: another task (U), same allowlist;
 * - dave: another project (allowlist project/orion), on no task;
 * - the person.
 * Probe authors are "erin" (a registered agent none of the callers is) unless the scope is about the
 * author, so what a caller sees follows from the scope rule alone.
 */

export const ALICE: ToolCaller = { kind: 'agent', agent_id: 'alice' };
export const BOB: ToolCaller = { kind: 'agent', agent_id: 'bob' };
export const CAROL: ToolCaller = { kind: 'agent', agent_id: 'carol' };
export const DAVE: ToolCaller = { kind: 'agent', agent_id: 'dave' };
export const HUMAN: ToolCaller = { kind: 'human', agent_id: null };

export const POLICY = {
  version: 1,
  default_namespaces: [],
  agents: { alice: { namespaces: ['project/atlas'] }, bob: { namespaces: ['project/atlas'] }, carol: { namespaces: ['project/atlas'] }, dave: { namespaces: ['project/orion'] } },
  shared_patterns: [],
  propose_namespaces: [],
};

export type Probe = 'shared' | 'project' | 'task' | 'agent_private' | 'user_private' | 'unknown scope';
export const PROBES: Probe[] = ['shared', 'project', 'task', 'agent_private', 'user_private', 'unknown scope'];

export const HUB = 'hub/Hub.md';

export interface ScopeVault extends Harness {
  tools: ToolDispatcher;
  call(name: string, args: unknown, caller: ToolCaller): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results, checked by assertions
  taskT: string;
  taskU: string;
  /** Vault path of each probe. */
  path: Record<Probe, string>;
  id: Record<Probe, string>;
  hubId: string;
}

const slug = (p: Probe): string => p.replace(/ /g, '-');
export const titleOf = (p: Probe): string => `Probe ${slug(p)}`;
export const tagOf = (p: Probe): string => `probe-${slug(p)}`;

export async function openScopeVault(): Promise<ScopeVault> {
  const h = await openHarness({});
  const co = h.engine.services.coordination;
  // erin, the probes' author, is an agent too: the probes are agents' notes, which agents may change (with
  // expected_version) without the trust boundary turning every write into a proposal for the person.
  for (const a of ['alice', 'bob', 'carol', 'dave', 'erin']) await co.ensureAgent(a);
  const taskT = (await co.createTask({ created_by: 'bob', title: 'Task T' })).id;
  const taskU = (await co.createTask({ created_by: 'carol', title: 'Task U' })).id;
  await co.claim({ task_id: taskT, aspect: 'tests', agent: 'alice' });
  await h.engine.services.governance.policy.set(POLICY);

  const spec: Record<Probe, { ns: string; fm: Record<string, unknown> }> = {
    shared: { ns: 'notes/shared', fm: { access_scope: 'shared', author: 'erin' } },
    project: { ns: 'project/atlas', fm: { access_scope: 'project', author: 'erin' } },
    task: { ns: `task/${taskT}`, fm: { access_scope: 'task', author: 'erin' } },
    agent_private: { ns: 'agent/alice', fm: { access_scope: 'agent_private', author: 'alice' } },
    user_private: { ns: 'people/me', fm: { access_scope: 'user_private' } },
    'unknown scope': { ns: 'notes/odd', fm: { access_scope: 'secretish', author: 'erin' } },
  };
  const path = {} as Record<Probe, string>;
  for (const p of PROBES) {
    path[p] = `${spec[p].ns}/${titleOf(p)}.md`;
    h.vault.put(path[p], note({ title: titleOf(p), namespace: spec[p].ns, tags: ['zebra', tagOf(p)], ...spec[p].fm }, `Zebra probe ${slug(p)}: striped knowledge kept ${slug(p)}.\n`), false);
  }
  h.vault.put(HUB, note({ title: 'Hub', tags: ['hub'] }, `Hub of the probes.\n${PROBES.map((p) => `[[${titleOf(p)}]]`).join('\n')}\n`), false);
  await h.engine.reconcile();

  const id = Object.fromEntries(PROBES.map((p) => [p, h.engine.services.notes.note(path[p])!.nodeId])) as Record<Probe, string>;
  const hubId = h.engine.services.notes.note(HUB)!.nodeId;
  for (const p of PROBES) {
    await h.engine.services.learning.memory.edges.upsert({ from_id: hubId, to_id: id[p], type: 'supports', weight: 0.5, namespace: 'hub', provenance_actor: 'test', provenance_type: 'human', evidence: null, conflict_state: null });
  }
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine, deleteTo: 'trash_folder' }));
  return { ...h, tools, call: (name, args, caller) => tools.call(name, args, caller), taskT, taskU, path, id, hubId };
}
