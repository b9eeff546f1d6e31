import type { Logger } from '../ports';
import { MEMORY_SCHEMA } from './schema';
import { openStoreDb, readMeta, sealedJournalSeq, type OpenDeps } from './sqlite';
import type { SqlDb } from './sql-db';
import { Journal, parseJournal } from './journal';
import { applyOp } from './memory-rows';
import type { MemoryOp } from './memory-types';

export const MEMORY_JOURNAL = 'memory.journal';

export interface RecoveredMemory {
  db: SqlDb;
  journal: Journal<MemoryOp>;
  /** Highest sequence number seen (snapshot or journal): the next op gets seq + 1. */
  seq: number;
  /** Journal entries applied on top of the snapshot (they need a new snapshot). */
  replayed: number;
  /** The store must be saved again even with nothing replayed (an older copy was accepted: see below). */
  resave: boolean;
  warnings: string[];
}

/**
 * Opens memory.sqlite the way a restart after a crash needs: load (or reset) the snapshot, replay the
 * journal entries newer than it, drop a torn last line, and leave the journal file holding exactly the
 * entries the snapshot lacks.
 */
export async function recoverMemory(deps: OpenDeps & { logger: Logger }): Promise<RecoveredMemory> {
  const opened = await openStoreDb(deps, MEMORY_SCHEMA);
  const db = opened.db;
  const warnings: string[] = [];
  const snapshotSeq = Number(readMeta(db, 'journal_seq') ?? 0);
  const savedSeq = opened.state === 'loaded' ? await sealedJournalSeq(deps.blobs, MEMORY_SCHEMA.file) : null;
  const raw = await deps.blobs.read(MEMORY_JOURNAL);
  const parsed = parseJournal<MemoryOp>(raw);
  // After a reset the snapshot is gone, so every journaled op is replayed (ops are idempotent upserts).
  const floor = opened.state === 'reset' ? -Infinity : snapshotSeq;
  const toReplay = parsed.entries.filter((e) => e.seq > floor).sort((a, b) => a.seq - b.seq);
  let failed = 0;
  for (const e of toReplay) {
    try {
      db.transaction(() => applyOp(db, e.op));
    } catch (err) {
      failed++;
      deps.logger.warn('skipped a journal entry that could not be applied', { seq: e.seq, error: String(err) });
    }
  }
  // Numbering continues above what the last save held, also when an older copy was loaded.
  const seq = Math.max(parsed.entries.reduce((m, e) => Math.max(m, e.seq), snapshotSeq), savedSeq ?? 0);
  const olderCopy = savedSeq !== null && snapshotSeq < savedSeq;

  if (opened.damage) {
    warnings.push(
      `${MEMORY_SCHEMA.file} was damaged (${opened.damage.reason}); learned edges and stats were reset; ` +
        `the damaged file is kept as ${opened.damage.keptAs}.` +
        (toReplay.length ? ` ${toReplay.length} change(s) from ${MEMORY_JOURNAL} were replayed onto the fresh store.` : ''),
    );
  }
  if (olderCopy) {
    // An older copy than the one last saved (a backup restored, a sync from another machine): what the
    // journal still holds is replayed; what only the newer snapshot held is gone, and the person should know.
    const held = new Set(toReplay.map((e) => e.seq));
    let missing = 0;
    for (let s = snapshotSeq + 1; s <= savedSeq; s++) if (!held.has(s)) missing++;
    if (missing > 0) {
      warnings.push(
        `${MEMORY_SCHEMA.file} is an older copy than the one Lithos last saved (it holds changes up to #${snapshotSeq}, the last save held #${savedSeq}: restored from a backup, or synced from another machine?); ` +
          `${missing} learned change(s) that only the newer copy held are lost.`,
      );
    }
  }
  if (parsed.torn) warnings.push(`${MEMORY_JOURNAL} ended with an incomplete entry (a crash during a write); it was ignored.`);
  if (parsed.badLines) warnings.push(`${MEMORY_JOURNAL} had ${parsed.badLines} unreadable line(s); they were skipped.`);
  if (failed) warnings.push(`${failed} journal entr${failed === 1 ? 'y' : 'ies'} could not be applied and were skipped.`);
  for (const w of warnings) deps.logger.warn(w);

  const journal = new Journal<MemoryOp>(deps.blobs, MEMORY_JOURNAL, deps.logger, toReplay);
  const fileHoldsMore = parsed.torn || parsed.badLines > 0 || toReplay.length !== parsed.entries.length;
  if (raw && raw.byteLength > 0 && fileHoldsMore) await journal.rewrite();
  // Saved again at once, so the warning is given once: the accepted copy is then the last saved.
  return { db, journal, seq, replayed: toReplay.length, resave: olderCopy, warnings };
}
