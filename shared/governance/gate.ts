/**
 * The scope gate: whether a viewer may see a note at all. Every retrieval scout, read tool and receipt goes
 * through this one function, so the policy changes every path at once. Enforced policy (docs/governance.md "Access
 * scopes"):
 *
 * | scope           | who sees it                                                                     |
 * |-----------------|---------------------------------------------------------------------------------|
 * | `shared`        | everyone                                                                        |
 * | `project`       | the person, and agents whose namespace allowlist covers the note's namespace    |
 * | `task`          | the person, the author, and agents on the task named by the namespace `task/<id>` |
 * | `agent_private` | the person and its owner: the author, or the agent of namespace `agent/<id>`    |
 * | `user_private`  | the person only, never an agent                                                 |
 * | anything else   | the person only (fail closed)                                                   |
 *
 * A namespace matching a policy "shared pattern" is readable by every agent whatever its scope, except
 * `user_private`. "On the task" means a task the viewer created, claimed or reported on (resolved into
 * `tasks` by governance/viewer.ts); the task a call names is not enough on its own. A namespace filter, when given, restricts further.
 *
 * The viewer arrives resolved (allowlist, tasks, shared patterns filled in from the policy and the
 * coordination store), so the gate itself stays synchronous and pure. A viewer built by `agentViewer`
 * alone has no allowlist: it sees no `project` note (fail closed).
 */
import { agentOfNamespace, coveredBy, taskOfNamespace, under } from './namespace-patterns';
import { fold } from '../model/resolve';

export interface Viewer {
  kind: 'human' | 'agent';
  agent_id: string | null;
  /** The task the call is made for (lithos_retrieve's task_id). */
  task_id: string | null;
  /** Other tasks the agent is on: created, claimed (live or lapsed) or reported on. */
  tasks?: readonly string[];
  /** Namespace patterns of `project` notes it may see (its policy allowlist). Absent: none. */
  namespaces?: readonly string[];
  /** Policy shared patterns: namespaces every agent may read whatever the scope (user_private excepted). */
  shared_patterns?: readonly string[];
  /** Policy hidden folders: vault folders whose notes this agent never sees. */
  hidden_folders?: readonly string[];
  /** An unverified agent (governance/agent-keys.ts): `shared` notes only, whatever its id or the policy say. */
  shared_only?: boolean;
}

export interface GatedNote {
  namespace: string;
  access_scope: string;
  author: string | null;
  /** Vault path; needed when the viewer has hidden folders (without it such a viewer sees nothing: fail closed). */
  path?: string;
}

/** A live note as the gate judges it: its metadata and its path. */
export function gatedNote(n: { path: string; cached: { meta: Pick<GatedNote, 'namespace' | 'access_scope' | 'author'> } }): GatedNote {
  const m = n.cached.meta;
  return { namespace: m.namespace, access_scope: m.access_scope, author: m.author, path: n.path };
}

/**
 * Whether a path lies in one of these hidden folders (whole segments: `priv` hides `priv/x.md`, not
 * `private/x.md`). An unknown path counts as hidden when there are any (fail closed).
 */
export function inHiddenFolder(folders: readonly string[] | undefined, path: string | undefined): boolean {
  if (!folders || folders.length === 0) return false;
  if (path === undefined) return true;
  // Case- and form-blind: on macOS and Windows "private/x.md" is inside a hidden "Private" folder.
  const p = fold(path);
  return folders.some((f) => p.startsWith(fold(f) + '/'));
}

function hidden(viewer: Viewer, note: GatedNote): boolean {
  return inHiddenFolder(viewer.hidden_folders, note.path);
}

export const HUMAN_VIEWER: Viewer = { kind: 'human', agent_id: null, task_id: null };

/** An unresolved agent viewer: no allowlist, no tasks beyond `taskId` (GovernanceService.viewerFor resolves one). */
export function agentViewer(agentId: string | null | undefined, taskId?: string | null): Viewer {
  return { kind: 'agent', agent_id: agentId ?? null, task_id: taskId ?? null };
}

/**
 * Whether the viewer is on the task: one it created, claimed or reported on. Naming a task on a call
 * (lithos_retrieve's task_id) is not enough: any agent could name any task and read its notes.
 */
function onTask(viewer: Viewer, taskId: string): boolean {
  return viewer.tasks?.includes(taskId) ?? false;
}

export function canSee(viewer: Viewer, note: GatedNote): boolean {
  if (viewer.kind === 'human') return true;
  if (hidden(viewer, note)) return false;
  const scope = note.access_scope;
  if (scope === 'user_private') return false;
  if (viewer.shared_only) return scope === 'shared';
  const me = viewer.agent_id;
  switch (scope) {
    case 'shared':
      return true;
    case 'project':
      return coveredBy(viewer.namespaces, note.namespace) || coveredBy(viewer.shared_patterns, note.namespace);
    case 'agent_private':
      if (me !== null && (note.author === me || agentOfNamespace(note.namespace) === me)) return true;
      return coveredBy(viewer.shared_patterns, note.namespace);
    case 'task': {
      if (me !== null && note.author === me) return true;
      const task = taskOfNamespace(note.namespace);
      if (task !== null && onTask(viewer, task)) return true;
      return coveredBy(viewer.shared_patterns, note.namespace);
    }
    default:
      // A scope this engine does not know: fail closed.
      return false;
  }
}

/** The gate bound to a viewer and a namespace filter (empty filter = no restriction). */
export function gateFor(viewer: Viewer, namespaces: readonly string[] = []): (note: GatedNote) => boolean {
  const prefixes = namespaces.map((n) => n.trim().replace(/\/+$/, '')).filter((n) => n !== '');
  return (note) => canSee(viewer, note) && (prefixes.length === 0 || prefixes.some((p) => under(note.namespace, p)));
}

/** A key naming everything the gate of this viewer depends on, for caches of gate results. */
export function viewerKey(viewer: Viewer): string {
  return JSON.stringify([viewer.kind, viewer.agent_id, viewer.task_id, viewer.tasks ?? [], viewer.namespaces ?? [], viewer.shared_patterns ?? [], viewer.hidden_folders ?? [], viewer.shared_only === true]);
}
