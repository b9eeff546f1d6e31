/**
 * Quarantine: a note marked misleading feedback.quarantine_at times (the vault's tunables) gets `status:
 * quarantined` in its frontmatter and a managed status callout (retrieval hides quarantined notes by
 * default), and is listed for a person to review.
 */
import type { LearningPorts } from './learning-ports';

export interface QuarantinedNote {
  id: string;
  path: string;
  title: string;
  note_type: string;
  namespace: string;
  misleading_count: number;
  salience: number;
}

/** Sets `status: quarantined` and audits it; false when the note is gone or already quarantined. */
export async function quarantine(d: Pick<LearningPorts, 'notes' | 'memory' | 'clock' | 'callouts' | 'audit'>, id: string, why: { reason: string; receipt_id?: string }): Promise<boolean> {
  const note = d.notes.note(id);
  if (!note || note.nodeId !== id || note.cached.meta.status === 'quarantined') return false;
  const before = note.cached.meta.status;
  await d.notes.updateFrontmatter(note.path, (fm) => {
    fm.status = 'quarantined';
  });
  await d.memory.learned.setMark(quarantineMark(id), { at: d.clock.now(), misleading_count: d.memory.stats.get(id).misleading_count, previous_status: before });
  // The status callout now rather than at the next change-hook tick (conflicts/callouts.ts owns the block).
  await d.callouts.syncCallouts(id);
  await d.audit.append({
    action: 'quarantine',
    actor: { kind: 'rule', id: 'learning.misleading' },
    target: id,
    data: { path: note.path, previous_status: before, reason: why.reason, receipt_id: why.receipt_id ?? null },
  });
  return true;
}

const quarantineMark = (id: string): string => `quarantine:${id}`;

/**
 * Misleading marks that no longer count towards quarantine: those a note had when it was last quarantined,
 * once a person has released it (its status is no longer `quarantined`). 0 for a note never quarantined.
 */
export function misleadingBeforeRelease(d: Pick<LearningPorts, 'notes' | 'memory'>, id: string): number {
  const m = d.memory.learned.mark(quarantineMark(id)) as { misleading_count?: unknown } | null;
  if (!m || typeof m.misleading_count !== 'number' || d.notes.note(id)?.cached.meta.status === 'quarantined') return 0;
  return m.misleading_count;
}

/** Every quarantined note, most misleading first, for review. `allow` is the caller's scope gate. */
export function listQuarantined(d: Pick<LearningPorts, 'notes' | 'memory'>, allow: (id: string) => boolean = () => true): QuarantinedNote[] {
  return d.notes
    .notes()
    .filter((n) => n.cached.meta.status === 'quarantined' && allow(n.nodeId))
    .map((n) => {
      const s = d.memory.stats.get(n.nodeId);
      const m = n.cached.meta;
      return { id: n.nodeId, path: n.path, title: m.title, note_type: m.note_type, namespace: m.namespace, misleading_count: s.misleading_count, salience: s.salience };
    })
    .sort((a, b) => b.misleading_count - a.misleading_count || a.path.localeCompare(b.path));
}
