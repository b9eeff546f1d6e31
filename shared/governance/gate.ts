/**
 * The scope gate: whether a viewer may see a note at all. Every retrieval scout, search tool and receipt
 * goes through this one function, so tightening the policy (governance issue) changes every path at once.
 *
 * Interim policy, documented in README:
 * - the person (`kind: 'human'`) sees everything;
 * - `shared` and `project` notes are visible to every agent;
 * - `agent_private` only to its owner: the note's author, or an agent whose namespace `agent/<id>` holds it;
 * - `task` only to a viewer working on that task: namespace `task/<task_id>` (or below), or the author;
 * - `user_private` never to agents.
 * A namespace filter, when given, further restricts to those namespace prefixes.
 */

export interface Viewer {
  kind: 'human' | 'agent';
  agent_id: string | null;
  task_id: string | null;
}

export interface GatedNote {
  namespace: string;
  access_scope: string;
  author: string | null;
}

export const HUMAN_VIEWER: Viewer = { kind: 'human', agent_id: null, task_id: null };

export function agentViewer(agentId: string | null | undefined, taskId?: string | null): Viewer {
  return { kind: 'agent', agent_id: agentId ?? null, task_id: taskId ?? null };
}

function under(ns: string, prefix: string): boolean {
  return prefix === '' || ns === prefix || ns.startsWith(prefix + '/');
}

export function canSee(viewer: Viewer, note: GatedNote): boolean {
  if (viewer.kind === 'human') return true;
  switch (note.access_scope) {
    case 'shared':
    case 'project':
      return true;
    case 'agent_private':
      return viewer.agent_id !== null && (note.author === viewer.agent_id || under(note.namespace, `agent/${viewer.agent_id}`));
    case 'task':
      if (viewer.agent_id !== null && note.author === viewer.agent_id) return true;
      return viewer.task_id !== null && under(note.namespace, `task/${viewer.task_id}`);
    default:
      // user_private, and anything unknown: fail closed.
      return false;
  }
}

/** The gate bound to a viewer and a namespace filter (empty filter = no restriction). */
export function gateFor(viewer: Viewer, namespaces: readonly string[] = []): (note: GatedNote) => boolean {
  const prefixes = namespaces.map((n) => n.trim().replace(/\/+$/, '')).filter((n) => n !== '');
  return (note) => canSee(viewer, note) && (prefixes.length === 0 || prefixes.some((p) => under(note.namespace, p)));
}
