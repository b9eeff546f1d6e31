import type { SqlJsStatic } from 'sql.js';
import type { BlobStore, Clock, Logger, Timers } from '../ports';
import { asLithosError, LithosError } from '../errors';
import type { SqlDb } from './sql-db';
import type { Journal } from './journal';
import { sealStore, writeMeta } from './sqlite';
import { DebouncedPersister, DEFAULT_DEBOUNCE_MS } from './debounced-persister';
import { writeUnsaved, type JournaledFiles, type RecoveredStore } from './store-recovery';

export interface StoreDeps {
  sql: SqlJsStatic;
  blobs: BlobStore;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  debounceMs?: number;
}

/**
 * A sql.js database made durable by an append-only journal plus debounced snapshots. Subclasses
 * describe every change as ops (final row states); `mutate` applies them at once and resolves when
 * they are journaled. A snapshot stores the last seq it contains, so recovery replays only newer ops.
 *
 * No single damaged file loses an acknowledged change: each snapshot first copies the current file to
 * `<file>.prev`, the journal is kept back to that copy, and `<journal>.unsaved` vouches for changes only
 * the journal holds (store-recovery.ts), so a journal lost while it is their only copy is reported.
 */
export abstract class JournaledStore<Op> {
  protected readonly persister: DebouncedPersister;
  private seq: number;
  private closed = false;
  private batchDepth = 0;
  private readonly journal: Journal<Op>;
  /** Seq held by the snapshot file on disk, and by the previous one kept beside it. */
  private fileSeq: number | null;
  private prevSeq: number | null;
  /** What `<journal>.unsaved` says (or is about to): changes from this seq on are in the journal only. */
  private unsavedFrom: number | null;

  protected constructor(
    protected readonly db: SqlDb,
    recovered: RecoveredStore<Op>,
    protected readonly deps: StoreDeps,
    private readonly files: JournaledFiles<Op>,
    private readonly label: string,
  ) {
    this.journal = recovered.journal;
    this.seq = recovered.seq;
    this.fileSeq = recovered.fileSeq;
    this.prevSeq = recovered.prevSeq;
    // Replayed changes are in the journal only until the next snapshot, which the caller asks for.
    this.unsavedFrom = recovered.replayed > 0 ? recovered.baseSeq + 1 : null;
    const file = files.schema.file;
    this.persister = new DebouncedPersister({
      timers: deps.timers,
      clock: deps.clock,
      logger: deps.logger,
      debounceMs: deps.debounceMs ?? DEFAULT_DEBOUNCE_MS,
      persist: () => this.snapshot(),
      label: file,
    });
  }

  /** Writes one op into the database (also used by recovery, so it must be idempotent). */
  protected abstract apply(op: Op): void;

  /** Sees every op a local change makes, before it applies (shared/replica marks the rows it touches). */
  private watcher: ((op: Op) => void) | null = null;
  private quiet = false;

  /** Calls `fn` with each op of every later change (not those made through `mutateQuietly`), before it applies. */
  watch(fn: ((op: Op) => void) | null): void {
    this.watcher = fn;
  }

  /** A mutation `watch` does not see: the replica's own writes (what other devices learned is not this one's change). */
  protected mutateQuietly(plan: () => Op[]): Promise<void> {
    this.quiet = true;
    try {
      return this.mutate(plan);
    } finally {
      this.quiet = false;
    }
  }

  /**
   * Bulk mode (first index, reconcile): while `fn` runs, mutations resolve as soon as they are applied
   * instead of waiting for their own journal append, so N sequential awaits cost a few coalesced appends
   * rather than N durable writes. batch() itself resolves only once every mutation made during it is
   * journaled (and rejects if one could not be). The early acknowledgement applies to every caller
   * while a batch is open, not only to `fn`.
   */
  async batch<T>(fn: () => Promise<T> | T): Promise<T> {
    this.assertOpen();
    const startSeq = this.seq;
    this.batchDepth++;
    let out: T;
    try {
      out = await fn();
    } finally {
      this.batchDepth--;
      await this.journal.durableThrough(startSeq, this.seq);
    }
    return out;
  }

  /** Journal entries not yet covered by a snapshot. */
  journalSize(): number {
    return this.journal.size();
  }

  /** Writes the snapshot now and truncates the journal. */
  async flush(): Promise<void> {
    this.assertOpen();
    await this.journal.idle();
    await this.persister.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    await this.journal.idle();
    this.persister.dispose();
    this.closed = true;
    this.db.close();
  }

  /**
   * Validates and computes ops synchronously (`plan` may throw: nothing is then written), applies them
   * atomically, then journals them; resolves once the journal line is durable.
   */
  protected mutate(plan: () => Op[]): Promise<void> {
    try {
      this.assertOpen();
      const ops = this.db.transaction(() => {
        const planned = plan();
        for (const op of planned) {
          if (this.watcher && !this.quiet) this.watcher(op);
          this.apply(op);
        }
        return planned;
      });
      if (ops.length === 0) return Promise.resolve();
      if (this.unsavedFrom === null) {
        // Before the journal becomes the only copy of a change, say so in a second file.
        const from = this.seq + 1;
        this.unsavedFrom = from;
        void this.journal.enqueue(() => writeUnsaved(this.deps.blobs, this.files.unsaved, from)).catch(() => {
          if (this.unsavedFrom === from) this.unsavedFrom = null; // the next change tries again
        });
      }
      const appends = ops.map((op) => this.journal.append(++this.seq, op));
      this.persister.markDirty();
      const durable = Promise.all(appends).then(() => undefined);
      if (this.batchDepth === 0) return durable;
      durable.catch(() => undefined); // reported by batch() instead
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : asLithosError(err));
    }
  }

  protected assertOpen(): void {
    if (this.closed) throw new LithosError('internal', `The ${this.label} is closed.`);
  }

  /**
   * Order matters for crash safety: the snapshot (with the seq it covers) is written atomically first;
   * only then are the journal entries it covers dropped. A crash between the two replays entries the
   * snapshot already holds, which ops being final states makes harmless.
   */
  private async snapshot(): Promise<void> {
    // Taken synchronously: the stored seq and the bytes describe exactly the same state.
    const upTo = this.seq;
    writeMeta(this.db, 'journal_seq', String(upTo));
    const bytes = this.db.export();
    const dropThrough = await this.writeSnapshot(bytes, upTo);
    await this.journal.truncateThrough(dropThrough);
    // Changes made while the snapshot was written are still the journal's alone.
    const from = this.seq > upTo ? upTo + 1 : null;
    if (from !== this.unsavedFrom) {
      this.unsavedFrom = from;
      await this.journal.enqueue(() => writeUnsaved(this.deps.blobs, this.files.unsaved, from));
    }
  }

  /**
   * Writes the snapshot bytes (holding every op through `upTo`) and returns the seq through which the
   * journal may then be dropped: the previous generation's, as the current file is first copied to
   * `<file>.prev`. A damaged current file then loses nothing.
   */
  private async writeSnapshot(bytes: Uint8Array, upTo: number): Promise<number> {
    const { blobs } = this.deps;
    const file = this.files.schema.file;
    if (this.fileSeq !== null) {
      const current = await blobs.read(file);
      if (current) {
        await blobs.writeAtomic(this.files.previous, current);
        this.prevSeq = this.fileSeq;
      }
    }
    await blobs.writeAtomic(file, bytes);
    this.fileSeq = upTo;
    await sealStore(blobs, file, bytes, upTo); // the next open can skip the full integrity check
    return this.prevSeq ?? 0;
  }
}
