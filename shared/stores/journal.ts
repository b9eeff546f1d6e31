import type { BlobStore, Logger } from '../ports';

/** One journal line: a sequence number plus the operation's own fields. */
export type JournalEntry<Op> = { seq: number; op: Op };

export interface ParsedJournal<Op> {
  entries: JournalEntry<Op>[];
  /** A last line without its newline: the process died mid-append, so it was never acknowledged. */
  torn: boolean;
  /** Complete lines that are not valid entries (damage, not a crash); skipped. */
  badLines: number;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

export function parseJournal<Op>(bytes: Uint8Array | null): ParsedJournal<Op> {
  const out: ParsedJournal<Op> = { entries: [], torn: false, badLines: 0 };
  if (!bytes || bytes.byteLength === 0) return out;
  const parts = dec.decode(bytes).split('\n');
  // After a complete final line, split leaves one empty string; anything else there was cut short.
  const tail = parts.pop() ?? '';
  out.torn = tail.length > 0;
  for (const line of parts) {
    if (line.trim() === '') continue;
    try {
      const parsed = JSON.parse(line) as { seq?: unknown; op?: unknown };
      if (typeof parsed.seq !== 'number' || !Number.isInteger(parsed.seq) || typeof parsed.op !== 'object' || parsed.op === null) {
        out.badLines++;
        continue;
      }
      out.entries.push({ seq: parsed.seq, op: parsed.op as Op });
    } catch {
      out.badLines++;
    }
  }
  return out;
}

function encodeLines(lines: string[]): Uint8Array {
  return enc.encode(lines.map((l) => `${l}\n`).join(''));
}

/**
 * Append-only log of mutations since the last snapshot. Appends made in the same tick (or while an
 * earlier append is in flight) share one BlobStore.append — group commit. All I/O goes through one
 * chain, so a truncation never races an append.
 */
export class Journal<Op> {
  private pending: { seq: number; line: string }[] = [];
  private waiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();
  /** Appends that failed (rare), so a batch can tell whether all of its entries are durable. */
  private failures: { from: number; to: number; error: unknown }[] = [];
  /** Lines known to be on disk and not yet covered by a snapshot. */
  private durable: { seq: number; line: string }[];

  constructor(
    private readonly blobs: BlobStore,
    private readonly name: string,
    private readonly logger: Logger,
    onDisk: JournalEntry<Op>[] = [],
  ) {
    this.durable = onDisk.map((e) => ({ seq: e.seq, line: JSON.stringify(e) }));
  }

  /** Resolves once the entry is durable. */
  append(seq: number, op: Op): Promise<void> {
    this.pending.push({ seq, line: JSON.stringify({ seq, op }) });
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.scheduled) {
      this.scheduled = true;
      this.chain = this.chain.then(() => this.drain());
    }
    return done;
  }

  /**
   * Drops the entries a snapshot now holds (seq ≤ `seq`). Later entries are rewritten atomically,
   * or the file is removed when none remain.
   */
  truncateThrough(seq: number): Promise<void> {
    const run = async (): Promise<void> => {
      const keep = this.durable.filter((e) => e.seq > seq);
      // The file always equals `durable` (see rewrite), so nothing dropped means nothing to do.
      if (keep.length === this.durable.length) return;
      if (keep.length === 0) await this.blobs.remove(this.name);
      else await this.blobs.writeAtomic(this.name, encodeLines(keep.map((e) => e.line)));
      this.durable = keep;
    };
    const p = this.chain.then(run);
    this.chain = p.catch((err) => this.logger.error(`could not truncate ${this.name}`, { error: String(err) }));
    return p;
  }

  /**
   * Makes the file hold exactly the entries not yet in a snapshot. Called at open when the file also
   * holds something else (a torn tail, damaged lines, entries an earlier snapshot already covers), so
   * that later appends never land after a partial line.
   */
  rewrite(): Promise<void> {
    const p = this.chain.then(async () => {
      if (this.durable.length === 0) await this.blobs.remove(this.name);
      else await this.blobs.writeAtomic(this.name, encodeLines(this.durable.map((e) => e.line)));
    });
    this.chain = p.catch((err) => this.logger.error(`could not rewrite ${this.name}`, { error: String(err) }));
    return p;
  }

  /** Runs `io` after every append and truncation requested so far, before any requested later. */
  enqueue(io: () => Promise<void>): Promise<void> {
    const p = this.chain.then(io);
    this.chain = p.catch((err) => this.logger.error(`could not write beside ${this.name}`, { error: String(err) }));
    return p;
  }

  /** Resolves when every append and truncation requested so far has finished. */
  idle(): Promise<void> {
    return this.chain;
  }

  /**
   * Resolves once every entry with after < seq ≤ upTo requested so far has been written; rejects with
   * the append's error if one of them could not be.
   */
  async durableThrough(after: number, upTo: number): Promise<void> {
    await this.chain;
    const failure = this.failures.find((f) => f.to > after && f.from <= upTo);
    if (failure) throw failure.error;
  }

  /** Entries on disk not yet covered by a snapshot (for diagnostics and tests). */
  size(): number {
    return this.durable.length;
  }

  private async drain(): Promise<void> {
    const batch = this.pending;
    const waiters = this.waiters;
    this.pending = [];
    this.waiters = [];
    this.scheduled = false;
    try {
      await this.blobs.append(this.name, encodeLines(batch.map((e) => e.line)));
      for (const e of batch) this.durable.push(e); // not push(...batch): one mutation may journal 100k+ ops
      for (const w of waiters) w.resolve();
    } catch (err) {
      this.logger.error(`could not append to ${this.name}`, { error: String(err) });
      if (batch.length) this.failures = [...this.failures.slice(-99), { from: batch[0].seq, to: batch[batch.length - 1].seq, error: err }];
      for (const w of waiters) w.reject(err);
    }
  }
}
