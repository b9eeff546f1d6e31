/**
 * Turns a caller into the viewer the gate judges: the person as is; an agent with its allowlist and the
 * shared patterns from the policy, and the tasks it is on from the coordination store. The allowlist comes
 * from the policy file only, never from the agent's own registration: an agent could register itself with
 * any namespaces it liked.
 */
import { HUMAN_VIEWER, type Viewer } from './gate';
import { allowlistOf, type Policy } from './policy';

export interface ViewerSources {
  policy: Policy;
  /** Ids of the tasks an agent created, claimed (live or lapsed) or reported on. */
  tasksOf(agentId: string): string[];
}

export function resolveViewer(caller: { kind: 'human' | 'agent'; agent_id: string | null; verified?: boolean }, taskId: string | null, src: ViewerSources): Viewer {
  if (caller.kind === 'human') return HUMAN_VIEWER;
  const id = caller.agent_id;
  // Unverified (no key where keys are issued): its claimed id earns it nothing, not even its own notes.
  if (caller.verified === false) return { kind: 'agent', agent_id: id, task_id: taskId, tasks: [], namespaces: [], shared_patterns: [], hidden_folders: src.policy.hidden_folders, shared_only: true };
  return {
    kind: 'agent',
    agent_id: id,
    task_id: taskId,
    tasks: id === null ? [] : src.tasksOf(id),
    namespaces: allowlistOf(src.policy, id),
    shared_patterns: src.policy.shared_patterns,
    hidden_folders: src.policy.hidden_folders,
  };
}
