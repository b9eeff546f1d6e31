import type { Logger } from '../ports';
import { openStoreDb, readMeta, type OpenDeps } from '../stores/sqlite';
import type { SqlDb } from '../stores/sql-db';
import { Journal, parseJournal } from '../stores/journal';
import { COORDINATION_JOURNAL, COORDINATION_PREVIOUS, COORDINATION_SCHEMA } from './coordination-schema';
import { applyCoordinationOp } from './coordination-rows';
import type { CoordinationOp } from './coordination-types';

const FILE = COORDINATION_SCHEMA.file;

export interface RecoveredCoordination {
  db: SqlDb;
  journal: Journal<CoordinationOp>;
  /** Highest sequence number seen: the next op gets seq + 1. */
  seq: number;
  /** Journal entries applied on top of the base snapshot (they need a new snapshot). */
  replayed: number;
  /** Seq held by coordination.sqlite on disk (null: no sound file there now). */
  fileSeq: number | null;
  /** Seq held by coordination.sqlite.prev when known (it is the base of this recovery). */
  prevSeq: number | null;
  warnings: string[];
}

const seqOf = (db: SqlDb): number => Number(readMeta(db, 'journal_seq') ?? 0);

/**
 * Opens coordination.sqlite the way a restart after a crash needs. The journal always reaches back to
 * the previous snapshot (see CoordinationStore.writeSnapshot), so when the current file is damaged or
 * missing, the previous one plus the journal restores every acknowledged change. Only when both files
 * are unusable does the store start from the journal alone, with a warning saying so.
 */
export async function recoverCoordination(deps: OpenDeps & { logger: Logger }): Promise<RecoveredCoordination> {
  const warnings: string[] = [];
  const opened = await openStoreDb(deps, COORDINATION_SCHEMA);
  let db = opened.db;
  let base: 'current' | 'previous' | 'none' = opened.state === 'loaded' ? 'current' : 'none';
  let prevSeq: number | null = null;
  let prevDamage: { reason: string; keptAs: string } | undefined;
  if (base === 'none' && (await deps.blobs.read(COORDINATION_PREVIOUS)) !== null) {
    const prev = await openStoreDb(deps, { ...COORDINATION_SCHEMA, file: COORDINATION_PREVIOUS });
    if (prev.state === 'loaded') {
      db.close();
      db = prev.db;
      base = 'previous';
      prevSeq = seqOf(db);
    } else {
      prev.db.close();
      prevDamage = prev.damage;
    }
  }

  const raw = await deps.blobs.read(COORDINATION_JOURNAL);
  const parsed = parseJournal<CoordinationOp>(raw);
  const entries = [...parsed.entries].sort((a, b) => a.seq - b.seq);
  const baseSeq = base === 'none' ? null : seqOf(db);
  const floor = baseSeq ?? -Infinity;
  const toReplay = entries.filter((e) => e.seq > floor);
  let failed = 0;
  for (const e of toReplay) {
    try {
      db.transaction(() => applyCoordinationOp(db, e.op));
    } catch (err) {
      failed++;
      deps.logger.warn('skipped a coordination journal entry that could not be applied', { seq: e.seq, error: String(err) });
    }
  }
  const seq = entries.reduce((m, e) => Math.max(m, e.seq), baseSeq ?? 0);

  const replayed = `${toReplay.length} change(s) replayed from ${COORDINATION_JOURNAL}`;
  // Seqs start at 1 and the journal is only ever cut behind a previous snapshot: from 1, it holds everything.
  const complete = entries.length > 0 && entries[0].seq === 1;
  const damage = opened.damage;
  if (damage && base === 'previous') {
    warnings.push(
      `${FILE} was damaged (${damage.reason}); it was restored from ${COORDINATION_PREVIOUS} with ${replayed}; ` +
        `the damaged file is kept as ${damage.keptAs}.`,
    );
  } else if (damage) {
    warnings.push(
      `${FILE} was damaged (${damage.reason}) and ` +
        (prevDamage ? `${COORDINATION_PREVIOUS} was damaged too (${prevDamage.reason}, kept as ${prevDamage.keptAs})` : `there is no ${COORDINATION_PREVIOUS}`) +
        `; it was rebuilt from ${COORDINATION_JOURNAL} alone (${toReplay.length} change(s)); ` +
        (complete ? 'the journal reaches back to the first change, so nothing was lost' : 'agents, tasks or claims older than the journal may be missing') +
        `; the damaged file is kept as ${damage.keptAs}.`,
    );
  } else if (base === 'previous') {
    warnings.push(`${FILE} was missing; it was restored from ${COORDINATION_PREVIOUS} with ${replayed}.`);
  } else if (prevDamage) {
    warnings.push(`${COORDINATION_PREVIOUS} was damaged (${prevDamage.reason}); it is kept as ${prevDamage.keptAs}.`);
  }
  if (parsed.torn) warnings.push(`${COORDINATION_JOURNAL} ended with an incomplete entry (a crash during a write); it was ignored.`);
  if (parsed.badLines) warnings.push(`${COORDINATION_JOURNAL} had ${parsed.badLines} unreadable line(s); they were skipped.`);
  if (failed) warnings.push(`${failed} coordination journal entr${failed === 1 ? 'y' : 'ies'} could not be applied and were skipped.`);
  for (const w of warnings) deps.logger.warn(w);

  // Every sound entry stays on disk: those at or below the current snapshot still back the previous one.
  const journal = new Journal<CoordinationOp>(deps.blobs, COORDINATION_JOURNAL, deps.logger, entries);
  if (raw && raw.byteLength > 0 && (parsed.torn || parsed.badLines > 0)) await journal.rewrite();
  return { db, journal, seq, replayed: toReplay.length, fileSeq: base === 'current' ? baseSeq : null, prevSeq, warnings };
}
