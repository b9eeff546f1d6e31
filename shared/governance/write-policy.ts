/**
 * Where an agent may write. The person may write anywhere. An agent may change a note only when:
 * - it can see the note as it is now (otherwise the tools answer not_found, so existence does not leak);
 * - the note is not, and will not be, `user_private` (the person's own notes);
 * - every namespace involved (before and after a move) is one it may write into: its own `agent/<id>`
 *   subtree, `task/<t>` of a task it is on, or a namespace its allowlist covers — never another agent's
 *   `agent/<x>` or the namespace of a task it is not on;
 * - it could still read the note afterwards (e.g. no task-scoped note outside `task/<t>` for someone else).
 * Refusals are `forbidden`, naming the rule. A namespace listed in the policy's propose_namespaces takes
 * agent writes as proposals a person confirms (governance/proposals.ts); agent deletes there are refused.
 */
import { LithosError } from '../errors';
import { canSee, type GatedNote, type Viewer } from './gate';
import { agentOfNamespace, coveredBy, taskOfNamespace } from './namespace-patterns';
import { proposesIn, type Policy } from './policy';

export type WriteDecision = 'write' | 'propose';

/** On the task: created, claimed or reported on it (naming it on a call is not enough, as for reading: gate.ts). */
function onTask(viewer: Viewer, task: string): boolean {
  return viewer.tasks?.includes(task) ?? false;
}

/** Why the agent may not write into the namespace, or null when it may. */
export function namespaceRefusal(viewer: Viewer, namespace: string): string | null {
  if (viewer.kind === 'human') return null;
  const me = viewer.agent_id;
  // "Agent/bob" is bob's folder on a case-insensitive disk: the reserved prefixes are read in any case.
  namespace = namespace.replace(/^(agent|task)\//i, (m) => m.toLowerCase());
  const owner = agentOfNamespace(namespace);
  if (owner !== null) return owner === me ? null : `namespace "${namespace}" belongs to agent "${owner}"; write under agent/${me ?? '<your id>'} instead`;
  const task = taskOfNamespace(namespace);
  if (task !== null) return onTask(viewer, task) ? null : `namespace "${namespace}" belongs to task "${task}", which you are not on; claim an aspect of it (lithos_task_claim) first`;
  if (coveredBy(viewer.namespaces, namespace)) return null;
  return `namespace "${namespace}" is outside your namespace allowlist (${(viewer.namespaces ?? []).join(', ') || 'empty'}); a person can widen it in .lithos/policy.json`;
}

function forbidden(message: string, data: Record<string, unknown>): LithosError {
  return new LithosError('forbidden', message, data);
}

/**
 * Checks an agent's note write: `before` is the note as it is (null when creating), `after` what the write
 * would make of it. Throws `forbidden`; returns whether the write applies now or becomes a proposal.
 */
export function checkNoteWrite(viewer: Viewer, policy: Policy, before: GatedNote | null, after: GatedNote & { path: string }): WriteDecision {
  if (viewer.kind === 'human') return 'write';
  const data = { path: after.path, namespace: after.namespace, access_scope: after.access_scope };
  if (after.access_scope === 'user_private' || before?.access_scope === 'user_private') {
    throw forbidden(`Cannot write "${after.path}": user_private notes belong to the person; agents may not write them. Use agent_private for your own notes.`, data);
  }
  for (const ns of new Set([before?.namespace, after.namespace])) {
    if (ns === undefined) continue;
    const why = namespaceRefusal(viewer, ns);
    if (why) throw forbidden(`Cannot write "${after.path}": ${why}.`, { ...data, namespace: ns });
  }
  if (!canSee(viewer, after)) {
    throw forbidden(`Cannot write "${after.path}" as ${after.access_scope} in "${after.namespace}": you could not read it afterwards (task notes go under task/<task id>, private notes under agent/<your id>).`, data);
  }
  return proposesIn(policy, after.namespace) || (before !== null && proposesIn(policy, before.namespace)) ? 'propose' : 'write';
}

/** Checks an agent's delete of a note it can see: a namespace it may write into, and not a proposal namespace. */
export function checkNoteDelete(viewer: Viewer, policy: Policy, note: GatedNote & { path: string }): void {
  if (viewer.kind === 'human') return;
  const data = { path: note.path, namespace: note.namespace };
  if (note.access_scope === 'user_private') throw forbidden(`Cannot delete "${note.path}": user_private notes belong to the person.`, data);
  const why = namespaceRefusal(viewer, note.namespace);
  if (why) throw forbidden(`Cannot delete "${note.path}": ${why}.`, data);
  if (proposesIn(policy, note.namespace)) {
    throw forbidden(`Cannot delete "${note.path}": changes in "${note.namespace}" are confirmed by a person. Propose archiving it instead: lithos_write with status "archived".`, data);
  }
}
