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

/**
 * Damaged store copies still in `.lithos/` (`*.corrupt-*`) that `known` warnings do not already name: a
 * store found damaged at an earlier open (maybe by another process, whose log nobody read) was set aside
 * and started afresh, and doctor says so for as long as the copy is there.
 */
export function setAsideWarnings(blobNames: readonly string[], known: readonly string[]): string[] {
  return blobNames
    .filter((n) => n.includes('.corrupt-') && !known.some((w) => w.includes(n)))
    .map((n) => `${n}: a damaged store was set aside here and started afresh (learned signals not in the journal were lost); delete the copy once you no longer need it.`);
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
