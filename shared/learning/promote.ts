/**
 * Hypothesis promotion. A `hypothesis` note is promoted when it was used successfully — cited in the
 * outcomes of at least PROMOTE_MIN_TASKS different completed tasks (and never marked misleading there) —
 * is still active, and is not in an open conflict: no `contradicts` edge touching it is unreviewed (or has
 * no state), accepted_dual or refuted. Promotion is a frontmatter change through processFrontMatter:
 * `note_type: agent_finding` plus `promoted_from: hypothesis` (so people and retrieval priors treat it as
 * an established finding, and where it came from stays visible); audited `hypothesis.promote`.
 */
import type { LearningPorts } from './learning-ports';
import type { AuditActor } from '../governance/audit';
import type { ConsolidationState } from './consolidation-state';

export const PROMOTE_MIN_TASKS = 2;
export const PROMOTED_FROM_FIELD = 'promoted_from';
/** Conflict states that keep a hypothesis from being promoted (null: created without a state). */
export const BLOCKING_CONFLICT_STATES: readonly (string | null)[] = [null, 'unreviewed', 'accepted_dual', 'refuted'];
export const PROMOTE_RULE: AuditActor = { kind: 'rule', id: 'promote-hypothesis' };

/** Remembers that `taskId`'s outcome cited these hypotheses (others are ignored). */
export function recordHypothesisUse(d: Pick<LearningPorts, 'notes'>, state: ConsolidationState, taskId: string, cited: readonly string[], misleading: readonly string[]): void {
  for (const id of cited) {
    if (misleading.includes(id)) continue;
    if (d.notes.note(id)?.cached.meta.note_type !== 'hypothesis') continue;
    const tasks = (state.hypothesis_tasks[id] ??= []);
    if (!tasks.includes(taskId)) tasks.push(taskId);
  }
}

export function inOpenConflict(d: Pick<LearningPorts, 'memory'>, id: string): boolean {
  const edges = [...d.memory.edges.find({ from: id, type: 'contradicts' }), ...d.memory.edges.find({ to: id, type: 'contradicts' })];
  return edges.some((e) => BLOCKING_CONFLICT_STATES.includes(e.conflict_state));
}

/** Promotes every hypothesis that qualifies; returns their ids. */
export async function promoteHypotheses(d: Pick<LearningPorts, 'notes' | 'memory' | 'audit'>, state: ConsolidationState): Promise<string[]> {
  const promoted: string[] = [];
  for (const [id, tasks] of Object.entries(state.hypothesis_tasks).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const note = d.notes.note(id);
    if (!note || note.nodeId !== id) continue;
    const m = note.cached.meta;
    if (m.note_type !== 'hypothesis') {
      delete state.hypothesis_tasks[id]; // promoted, or retyped by a person: nothing left to track
      continue;
    }
    if (tasks.length < PROMOTE_MIN_TASKS || m.status !== 'active' || inOpenConflict(d, id)) continue;
    await d.notes.updateFrontmatter(note.path, (fm) => {
      fm.note_type = 'agent_finding';
      fm[PROMOTED_FROM_FIELD] = 'hypothesis';
    });
    delete state.hypothesis_tasks[id];
    promoted.push(id);
    await d.audit.append({ action: 'hypothesis.promote', actor: PROMOTE_RULE, target: id, data: { path: note.path, tasks: [...tasks].sort(), to: 'agent_finding' } });
  }
  return promoted;
}
