import type { BlobStore, Logger } from '../ports';
import { openStoreDb, readMeta, sealedJournalSeq, type OpenDeps } from './sqlite';
import type { StoreSchema } from './schema';
import type { SqlDb } from './sql-db';
import { Journal, parseJournal } from './journal';
import type { StoreLoss } from './store-loss';

/** How one journaled store (memory.sqlite, coordination.sqlite) is laid out and what it holds. */
export interface JournaledFiles<Op> {
  schema: StoreSchema;
  journal: string;
  /** The snapshot before the current one (`<file>.prev`), kept with the journal back to it. */
  previous: string;
  /** `<journal>.unsaved` (see writeUnsaved). */
  unsaved: string;
  apply: (db: SqlDb, op: Op) => void;
  /** For warnings: what a reset loses ("learned edges and stats"). */
  holds: string;
}

export interface RecoveredStore<Op> {
  db: SqlDb;
  journal: Journal<Op>;
  /** Highest sequence number seen: the next op gets seq + 1. */
  seq: number;
  /** Journal entries applied on top of the base snapshot (they need a new snapshot). */
  replayed: number;
  /** Which file the store was loaded from. */
  base: 'current' | 'previous' | 'none';
  /** Seq held by the base snapshot (0 for none). */
  baseSeq: number;
  /** Seq held by the current file on disk (null: no sound file there now) and by the previous one when known. */
  fileSeq: number | null;
  prevSeq: number | null;
  /** The seq the last saved snapshot held, from its seal (null: unknown). */
  savedSeq: number | null;
  /** Seqs between the base and the newest change known to exist that no file holds any more. */
  missing: number;
  /** The journal was needed (it held changes no sound snapshot has), yet it had a torn or unreadable line. */
  journalDamage: { torn: boolean; badLines: number; needed: boolean };
  /** Notices (nothing lost) and loss messages alike; losses are also in `losses`. */
  warnings: string[];
  losses: StoreLoss[];
}

const seqOf = (db: SqlDb): number => Number(readMeta(db, 'journal_seq') ?? 0);

/**
 * `<journal>.unsaved` says "the journal holds changes from #from on that no snapshot has yet". It is written
 * before the first change after a snapshot is acknowledged and removed once a snapshot holds them all, so
 * a journal deleted or emptied while it is the only copy of those changes is found out, never silently
 * taken for "nothing to replay". An unreadable one is taken as present.
 */
async function readUnsaved(blobs: BlobStore, name: string): Promise<number | 'unreadable' | null> {
  const raw = await blobs.read(name);
  if (!raw) return null;
  try {
    const from = (JSON.parse(new TextDecoder().decode(raw)) as { from?: unknown }).from;
    return typeof from === 'number' && Number.isInteger(from) && from > 0 ? from : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

export async function writeUnsaved(blobs: BlobStore, name: string, from: number | null): Promise<void> {
  if (from === null) await blobs.remove(name);
  else await blobs.writeAtomic(name, new TextEncoder().encode(JSON.stringify({ from })));
}

/**
 * Opens a journaled store the way a restart after a crash or damage needs. The journal always reaches back
 * to the previous snapshot, so when the current file is damaged or missing, the previous one plus the
 * journal restores every acknowledged change; only when both are unusable does the store start from the
 * journal alone. Whatever is then missing (changes between the base and the newest one the seal or the
 * unsaved marker vouch for; a needed journal that was cut) is counted and reported as a loss.
 */
export async function recoverStore<Op>(deps: OpenDeps & { logger: Logger }, f: JournaledFiles<Op>): Promise<RecoveredStore<Op>> {
  const file = f.schema.file;
  const warnings: string[] = [];
  const losses: StoreLoss[] = [];
  const opened = await openStoreDb(deps, f.schema);
  let db = opened.db;
  let base: RecoveredStore<Op>['base'] = opened.state === 'loaded' ? 'current' : 'none';
  let prevSeq: number | null = null;
  let prevDamage: { reason: string; keptAs: string } | undefined;
  if ((await deps.blobs.read(f.previous)) !== null) {
    if (base === 'none') {
      const prev = await openStoreDb(deps, { ...f.schema, file: f.previous });
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
  }
  const savedSeq = await sealedJournalSeq(deps.blobs, file);
  const unsaved = await readUnsaved(deps.blobs, f.unsaved);

  const raw = await deps.blobs.read(f.journal);
  const parsed = parseJournal<Op>(raw);
  const entries = [...parsed.entries].sort((a, b) => a.seq - b.seq);
  const baseSeq = base === 'none' ? 0 : seqOf(db);
  const toReplay = entries.filter((e) => e.seq > baseSeq);
  let failed = 0;
  for (const e of toReplay) {
    try {
      db.transaction(() => f.apply(db, e.op));
    } catch (err) {
      failed++;
      deps.logger.warn(`skipped a ${f.journal} entry that could not be applied`, { seq: e.seq, error: String(err) });
    }
  }
  const journalMax = entries.reduce((m, e) => Math.max(m, e.seq), 0);
  // The newest change known to exist: in the journal, in the last saved snapshot (its seal), or vouched for
  // by the unsaved marker (at least one change from `from` on).
  const unsavedFrom = unsaved === 'unreadable' ? baseSeq + 1 : unsaved;
  const known = Math.max(journalMax, savedSeq ?? 0, unsavedFrom ?? 0);
  const held = new Set(toReplay.map((e) => e.seq));
  let missing = 0;
  for (let s = baseSeq + 1; s <= known; s++) if (!held.has(s)) missing++;
  const seq = Math.max(known, baseSeq);
  // Without the current file, or with changes only the journal had, the journal was the only copy of something.
  const needed = base !== 'current' || (unsavedFrom !== null && unsavedFrom > baseSeq);

  const damage = opened.damage;
  const replayed = `${toReplay.length} change(s) replayed from ${f.journal}`;
  const lossNote = missing > 0 ? `; ${missing} change(s) are lost` : '; nothing was lost';
  if (damage && base === 'previous') {
    warnings.push(`${file} was damaged (${damage.reason}); it was restored from ${f.previous} with ${replayed}${lossNote}; the damaged file is kept as ${damage.keptAs}.`);
  } else if (damage) {
    warnings.push(
      `${file} was damaged (${damage.reason}) and ` +
        (prevDamage ? `${f.previous} was damaged too (${prevDamage.reason}, kept as ${prevDamage.keptAs})` : `there is no ${f.previous}`) +
        `; it was rebuilt from ${f.journal} alone (${toReplay.length} change(s)); ` +
        (missing === 0 && (entries[0]?.seq ?? 1) === 1 ? 'the journal reaches back to the first change, so nothing was lost' : `${f.holds} older than the journal may be missing`) +
        `; the damaged file is kept as ${damage.keptAs}.`,
    );
  } else if (base === 'previous') {
    warnings.push(`${file} was missing; it was restored from ${f.previous} with ${replayed}${lossNote}.`);
  } else if (prevDamage) {
    warnings.push(`${f.previous} was damaged (${prevDamage.reason}); it is kept as ${prevDamage.keptAs}.`);
  }
  if (parsed.torn) warnings.push(`${f.journal} ended with an incomplete entry (a crash during a write); it was ignored.`);
  if (parsed.badLines) warnings.push(`${f.journal} had ${parsed.badLines} unreadable line(s); they were skipped.`);
  if (failed) warnings.push(`${failed} ${f.journal} entr${failed === 1 ? 'y' : 'ies'} could not be applied and were skipped.`);

  if (missing > 0) {
    const olderCopy = base === 'current' && (savedSeq ?? 0) > baseSeq;
    const inJournal = base === 'current' && !olderCopy;
    const lostIn = inJournal ? f.journal : file;
    const gone = raw === null || raw.byteLength === 0 ? 'is missing or empty' : 'does not hold them';
    losses.push({
      file: lostIn,
      counts: { lost_changes: missing },
      message: olderCopy
        ? `${file} is an older copy than the one Lithos last saved (it holds changes up to #${baseSeq}, the last save held #${savedSeq}: restored from a backup, or synced from another machine?); ` +
          `${missing} learned change(s) that only the newer copy held are lost (${f.holds}).`
        : inJournal
          ? `${f.journal} ${gone}, but it was the only copy of the changes made since the last snapshot: at least ${missing} learned change(s) are lost (${f.holds}).`
          : `${file}: ${missing} learned change(s) are lost (${f.holds}): neither ${f.previous} nor ${f.journal} holds them.`,
    });
  } else if (needed && (parsed.torn || parsed.badLines > 0)) {
    losses.push({
      file: f.journal,
      counts: { incomplete_entries: parsed.torn ? 1 : 0, unreadable_lines: parsed.badLines },
      message:
        `${f.journal} was the only copy of recent changes and is damaged: changes after #${Math.max(journalMax, baseSeq)} may be lost ` +
        `(or only the one being written when the process stopped, which was never acknowledged).`,
    });
  }
  for (const l of losses) warnings.push(l.message);
  for (const w of warnings) deps.logger.warn(w);

  // Every sound entry stays on disk: those at or below the current snapshot still back the previous one.
  const journal = new Journal<Op>(deps.blobs, f.journal, deps.logger, entries);
  if (raw && raw.byteLength > 0 && (parsed.torn || parsed.badLines > 0)) await journal.rewrite();
  return {
    db, journal, seq, replayed: toReplay.length, base, baseSeq,
    fileSeq: base === 'current' ? baseSeq : null, prevSeq, savedSeq, missing,
    journalDamage: { torn: parsed.torn, badLines: parsed.badLines, needed }, warnings, losses,
  };
}
