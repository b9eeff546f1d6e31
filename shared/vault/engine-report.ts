import type { NoteProblem } from '../model/types';
import type { IndexReport } from './sync';
import type { LiveNote } from './note-indexer';

/** What `lithos doctor` lists: every note's problems, store warnings, the last scan's errors, broken links. */
export interface DoctorReport {
  problems: NoteProblem[];
  warnings: string[];
  errors: IndexReport['errors'];
  broken_links: { from: string; target: string; raw: string }[];
}

export function doctorReport(notes: readonly LiveNote[], rest: Omit<DoctorReport, 'problems'>): DoctorReport {
  const problems = notes.flatMap((n) => n.cached.problems).sort((a, b) => a.path.localeCompare(b.path) || a.code.localeCompare(b.code));
  return { problems, ...rest };
}

/** `lithos stats`: counts over the notes in memory, plus what the stores and the sync report of themselves. */
export function engineStats(notes: readonly LiveNote[], rest: Record<string, unknown>): Record<string, unknown> {
  const byType: Record<string, number> = {};
  const byNamespace: Record<string, number> = {};
  let chunks = 0;
  let problems = 0;
  for (const n of notes) {
    byType[n.cached.meta.note_type] = (byType[n.cached.meta.note_type] ?? 0) + 1;
    byNamespace[n.cached.meta.namespace] = (byNamespace[n.cached.meta.namespace] ?? 0) + 1;
    chunks += n.chunkCount;
    problems += n.cached.problems.length;
  }
  return { notes: notes.length, chunks, problems, by_note_type: byType, by_namespace: byNamespace, ...rest };
}
