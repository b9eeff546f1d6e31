import type { NoteProblem } from '../model/types';
import type { IndexReport } from './sync';
import type { LiveNote } from './note-indexer';
import type { AuditEntry, AuditLog } from '../governance/audit';
import type { StoreLoss } from '../stores/store-loss';
import type { LedgerIdProblem } from './ledger-report';

/** What `lithos doctor` lists: every note's problems, store warnings, the last scan's errors, broken links. */
export interface DoctorReport {
  problems: NoteProblem[];
  warnings: string[];
  errors: IndexReport['errors'];
  broken_links: { from: string; target: string; raw: string }[];
  /** Ledger IDs malformed, missing or duplicated, and ID references that resolve to no note or to several (ledger-report.ts). */
  ledger_ids: LedgerIdProblem[];
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

/**
 * Each loss found at open becomes a `store.damaged` audit entry (actor: the engine) with its counts, so it
 * stays on record once the store is saved again and the warning is gone. The entries' seqs are kept in
 * `into` so doctor does not list them twice.
 */
export async function recordLosses(audit: AuditLog, losses: readonly StoreLoss[], into: StoreLoss[]): Promise<void> {
  for (const l of losses) {
    into.push(l);
    try {
      await audit.append({ action: 'store.damaged', actor: { kind: 'system', id: null }, target: l.file, data: { file: l.file, ...l.counts, message: l.message } });
    } catch {
      // The audit log's own failure is logged by it; the warning still reaches the person.
    }
  }
}

/** How long doctor keeps listing a loss recorded at an earlier open. */
export const LOSS_LISTED_MS = 30 * 24 * 3600 * 1000;

/** Losses recorded at earlier opens (audit `store.damaged`) within the last 30 days, newest first. */
export function pastLossWarnings(entries: readonly AuditEntry[], now: readonly StoreLoss[], at: number): string[] {
  return entries
    .filter((e) => Date.parse(e.ts) >= at - LOSS_LISTED_MS && !now.some((l) => l.message === e.data.message))
    .map((e) => `${e.ts}: ${typeof e.data.message === 'string' ? e.data.message : `${String(e.data.file)} lost learned data`} (audit entry ${e.seq})`);
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
