/**
 * The retrieval receipts log: one JSON line per retrieval in `.lithos/receipts.jsonl`, size-rotated into
 * `receipts.<seq>.jsonl` segments (seq grows; the highest is the newest), queryable newest first.
 *
 * Durability: append() resolves once its line is durably appended (BlobStore.append), so a crash loses
 * at most a line still being written; that torn fragment is skipped (and counted) when reading, and the
 * next append starts on a fresh line. Appends are serialised and group-committed, so concurrent appends
 * never interleave.
 *
 * Rotation without rename: the live file is copied whole to a new segment name with writeAtomic, then
 * removed; segments beyond the kept count are removed oldest first. A name is written once and never
 * changes, so nothing is ever shifted. A crash between the steps leaves the live file and the new segment
 * holding the same lines: queries de-duplicate by receipt_id, and the next writer notices the copy and
 * finishes the step instead of copying again.
 *
 * Each line also carries `seq` (1, 2, … across files; not part of the Receipt read back). The engine keeps
 * the newest seq in the memory store as well, so a log cut, emptied or deleted is found out at open
 * (check) and the number of receipts lost is reported, rather than the log silently starting shorter.
 */
import { z } from 'zod';
import { LithosError } from '../errors';
import { silentLogger, type BlobStore, type Clock, type Logger } from '../ports';
import type { Receipt } from './types';
import type { StoreLoss } from '../stores/store-loss';

export const RECEIPTS_FILE = 'receipts.jsonl';
/** Rotate once the live file is larger than this. */
export const DEFAULT_RECEIPTS_MAX_BYTES = 8 * 1024 * 1024;
/** Files kept, the live one included: at most (keepFiles − 1) rotated segments plus the live file. */
export const DEFAULT_RECEIPTS_KEEP_FILES = 5;
export const DEFAULT_RECEIPTS_LIMIT = 50;
export const MAX_RECEIPTS_LIMIT = 10_000;

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const AGO_RE = /^(\d+(?:\.\d+)?)\s*([smhdw])$/;
// Date-only or date-time with an optional zone; Date.parse alone accepts too much ("1", "May").
const ISO_RE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

const SEGMENT_RE = /^receipts\.(\d+)\.jsonl$/;
const segmentName = (seq: number): string => `receipts.${String(seq).padStart(6, '0')}.jsonl`;

export interface ReceiptLogOptions {
  maxBytes?: number;
  keepFiles?: number;
  logger?: Logger;
}

export interface ReceiptQuery {
  /** Inclusive. ISO time, a time ago (`30m`, `2h`, `3d`, `1w`) or ms since epoch. */
  since?: string | number;
  /** Exclusive. Same forms as `since`. */
  until?: string | number;
  agent?: string;
  task?: string;
  /** Matches receipts whose final nodes include this node id. */
  node?: string;
  receipt_id?: string;
  /** Default 50, at most 10,000. */
  limit?: number;
}

export interface ReceiptQueryResult {
  /** Most recently appended first; each receipt_id once. */
  receipts: Receipt[];
  /** Torn or unreadable lines met in the files read for this query. */
  skipped_lines: number;
}

/** What a line must hold to count as a receipt; other fields pass through as written. */
const receiptLine = z.looseObject({
  receipt_id: z.string().min(1),
  ts: z.string().refine((s) => ISO_RE.test(s) && !Number.isNaN(Date.parse(s))),
  agent_id: z.string().nullable(),
  task_id: z.string().nullable(),
  final_nodes: z.array(z.looseObject({ id: z.string() })),
});

const enc = new TextEncoder();
const dec = new TextDecoder();
const NEWLINE = 0x0a;

interface WriterState {
  liveBytes: number;
  /** The seq of the newest line written. */
  seq: number;
  /** False when the live file ends without a newline (torn by a crash, or a failed append). */
  tailClean: boolean;
}

export class ReceiptLog {
  private readonly maxBytes: number;
  private readonly keepFiles: number;
  private readonly logger: Logger;
  private pending: string[] = [];
  private waiters: { resolve: (seq: number) => void; reject: (err: unknown) => void }[] = [];
  /** Seqs are never reused: at least the newest one known to have been written (check). */
  private floorSeq = 0;
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();
  /** Known state of the live file; null until the first append (and after a failure) re-reads it. */
  private state: WriterState | null = null;

  constructor(
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    opts: ReceiptLogOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? DEFAULT_RECEIPTS_MAX_BYTES;
    this.keepFiles = opts.keepFiles ?? DEFAULT_RECEIPTS_KEEP_FILES;
    this.logger = opts.logger ?? silentLogger;
    if (!Number.isInteger(this.maxBytes) || this.maxBytes < 1) {
      throw new LithosError('invalid_argument', `maxBytes must be a whole number of bytes ≥ 1 (got ${String(opts.maxBytes)}).`);
    }
    // One file would make rotation discard what it just acknowledged.
    if (!Number.isInteger(this.keepFiles) || this.keepFiles < 2) {
      throw new LithosError('invalid_argument', `keepFiles must be a whole number ≥ 2 (got ${String(opts.keepFiles)}).`);
    }
  }

  /** Resolves with the line's seq once it is durable; rejects (writing nothing) if the receipt is malformed. */
  append(receipt: Receipt): Promise<number> {
    const checked = receiptLine.safeParse(receipt);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue.path.length ? issue.path.join('.') : 'receipt';
      return Promise.reject(new LithosError('invalid_argument', `Invalid receipt: ${where} ${describeIssue(issue)}.`, { receipt_id: (receipt as Partial<Receipt> | null)?.receipt_id ?? null }));
    }
    let line: string;
    try {
      line = JSON.stringify(receipt);
    } catch (err) {
      return Promise.reject(new LithosError('invalid_argument', `Invalid receipt: it cannot be written as JSON (${err instanceof Error ? err.message : String(err)}).`));
    }
    this.pending.push(line.slice(1)); // `{"seq":N,` is put in front once N is known (drain)
    const done = new Promise<number>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.scheduled) {
      this.scheduled = true;
      this.chain = this.chain.then(() => this.drain());
    }
    return done;
  }

  /** Resolves when every append (and rotation) requested so far has finished. */
  idle(): Promise<void> {
    return this.chain;
  }

  /** Receipts matching every given filter, most recently appended first. */
  async query(q: ReceiptQuery = {}): Promise<ReceiptQueryResult> {
    const f = this.resolveQuery(q);
    await this.chain;
    const out: Receipt[] = [];
    const seen = new Set<string>();
    let skipped = 0;
    // A receipt is 10–20 KB of JSON and the log holds up to 40 MB: lines are read newest first and parsed
    // only when they contain every id filtered on (as JSON spells it), so finding one receipt, or a task's,
    // does not parse and validate the whole log (feedback and task completion took a second at 20 MB).
    const needles = [f.receipt_id, f.agent, f.task, f.node].filter((v): v is string => v !== null).map((v) => JSON.stringify(v));
    for await (const bytes of this.files()) {
      const lines = dec.decode(bytes).split('\n');
      if ((lines.pop() ?? '').trim() !== '') skipped++; // a torn last line: a write cut short
      for (let j = lines.length - 1; j >= 0; j--) {
        const line = lines[j];
        if (line.trim() === '' || !needles.every((n) => line.includes(n))) continue;
        const r = parseReceiptLine(line);
        if (!r) {
          skipped++;
          continue;
        }
        if (seen.has(r.receipt_id) || !matches(r, f)) continue;
        seen.add(r.receipt_id);
        out.push(r);
        if (out.length >= f.limit) return { receipts: out, skipped_lines: skipped };
      }
      // Files come newest first and lines are appended in time order: once a file starts before `since`
      // (with a day's slack for a clock set back), the older files hold nothing newer.
      if (f.since !== null && startsBefore(lines, f.since - DAY_MS)) break;
    }
    return { receipts: out, skipped_lines: skipped };
  }

  async get(receiptId: string): Promise<Receipt | null> {
    return (await this.query({ receipt_id: receiptId, limit: 1 })).receipts[0] ?? null;
  }

  /**
   * File contents newest first: the live file, then segments listed only after it was read, so a rotation
   * by another process in between moves its lines into a segment this listing sees (copies are de-duplicated).
   */
  private async *files(): AsyncGenerator<Uint8Array> {
    const live = await this.blobs.read(RECEIPTS_FILE);
    if (live) yield live;
    for (const s of await this.segments()) {
      const bytes = await this.blobs.read(s.name);
      if (bytes) yield bytes; // null: the oldest segment was pruned just now
    }
  }

  private resolveQuery(q: ReceiptQuery): ResolvedQuery {
    if (typeof q !== 'object' || q === null) throw new LithosError('invalid_argument', 'The receipts query must be an object.');
    const known = ['since', 'until', 'agent', 'task', 'node', 'receipt_id', 'limit'];
    const unknown = Object.keys(q).filter((k) => !known.includes(k));
    if (unknown.length) throw new LithosError('invalid_argument', `Unknown receipts filter ${unknown.map((k) => `"${k}"`).join(', ')}; use ${known.join(', ')}.`);
    const now = this.clock.now();
    const since = q.since === undefined ? null : parseTimeArg(q.since, now, 'since');
    const until = q.until === undefined ? null : parseTimeArg(q.until, now, 'until');
    if (since !== null && until !== null && since >= until) {
      throw new LithosError('invalid_argument', `since (${new Date(since).toISOString()}) must be before until (${new Date(until).toISOString()}).`);
    }
    const text = (k: 'agent' | 'task' | 'node' | 'receipt_id'): string | null => {
      const v = q[k];
      if (v === undefined) return null;
      if (typeof v !== 'string' || v.trim() === '') throw new LithosError('invalid_argument', `${k} must be a non-empty string (got ${JSON.stringify(v)}).`);
      return v;
    };
    const limit = q.limit ?? DEFAULT_RECEIPTS_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RECEIPTS_LIMIT) {
      throw new LithosError('invalid_argument', `limit must be a whole number from 1 to ${MAX_RECEIPTS_LIMIT} (got ${JSON.stringify(q.limit)}).`);
    }
    return { since, until, agent: text('agent'), task: text('task'), node: text('node'), receipt_id: text('receipt_id'), limit };
  }

  private async drain(): Promise<void> {
    const lines = this.pending;
    const waiters = this.waiters;
    this.pending = [];
    this.waiters = [];
    this.scheduled = false;
    let state: WriterState;
    try {
      state = this.state ?? (await this.recover());
      this.state = state;
      const first = state.seq + 1;
      const stamped = lines.map((rest, i) => `{"seq":${first + i}${rest === '}' ? '' : ','}${rest}\n`);
      // After a torn tail the first new line must not be glued to the fragment.
      const bytes = enc.encode((state.tailClean ? '' : '\n') + stamped.join(''));
      try {
        await this.blobs.append(RECEIPTS_FILE, bytes);
      } catch (err) {
        this.state = null; // part of the bytes may have landed: re-read the tail next time
        throw err;
      }
      state.liveBytes += bytes.byteLength;
      state.tailClean = true;
      state.seq = first + lines.length - 1;
      waiters.forEach((w, i) => w.resolve(first + i));
    } catch (err) {
      this.logger.error(`could not append to ${RECEIPTS_FILE}`, { error: String(err) });
      for (const w of waiters) w.reject(err);
      return;
    }
    if (state.liveBytes <= this.maxBytes) return;
    try {
      await this.rotate(state);
    } catch (err) {
      // The receipts are durable in the live file; the next append re-reads the state and retries.
      this.state = null;
      this.logger.error(`could not rotate ${RECEIPTS_FILE}`, { error: String(err) });
    }
  }

  /**
   * Compares the newest seq on file with `expected` (the newest one the engine recorded elsewhere): a log
   * that ends before it was cut, emptied or deleted, and the difference is how many receipts are gone.
   */
  async check(expected: number | null): Promise<StoreLoss | null> {
    await this.chain;
    const found = await this.newestSeq();
    this.floorSeq = Math.max(this.floorSeq, expected ?? 0, found);
    if (expected === null || found >= expected) return null;
    const lost = expected - found;
    return {
      file: RECEIPTS_FILE,
      counts: { lost_receipts: lost },
      message: `${RECEIPTS_FILE} ends at receipt #${found} but receipt #${expected} was recorded: ${lost} receipt(s) were cut, emptied or deleted and are lost (their feedback can no longer be given).`,
    };
  }

  /** The seq of the newest readable line: in the live file, else in the newest segment holding one; 0 if none. */
  private async newestSeq(): Promise<number> {
    for await (const bytes of this.files()) {
      let end = bytes.byteLength;
      while (end > 0) {
        const start = bytes.lastIndexOf(NEWLINE, end - 1) + 1;
        const seq = seqOfLine(dec.decode(bytes.subarray(start, end)));
        if (seq !== null) return seq;
        end = start - 1;
      }
    }
    return 0;
  }

  /** Reads the live file's size and tail, and completes a rotation or pruning a crash interrupted. */
  private async recover(): Promise<WriterState> {
    const live = await this.blobs.read(RECEIPTS_FILE);
    const seq = Math.max(this.floorSeq, await this.newestSeq());
    const state: WriterState = { liveBytes: live?.byteLength ?? 0, seq, tailClean: !live || live.byteLength === 0 || live[live.byteLength - 1] === NEWLINE };
    if (live && live.byteLength > this.maxBytes) {
      const newest = (await this.segments())[0];
      const copy = newest ? await this.blobs.read(newest.name) : null;
      // The newest segment already holds exactly these bytes: the crash came between copy and remove.
      if (copy && sameBytes(copy, live)) await this.removeLive(state);
      else await this.rotate(state, live);
    }
    await this.prune();
    return state;
  }

  private async rotate(state: WriterState, known?: Uint8Array): Promise<void> {
    const live = known ?? (await this.blobs.read(RECEIPTS_FILE));
    if (live && live.byteLength > 0) {
      const seq = ((await this.segments())[0]?.seq ?? 0) + 1;
      await this.blobs.writeAtomic(segmentName(seq), live);
    }
    await this.removeLive(state);
    await this.prune();
  }

  private async removeLive(state: WriterState): Promise<void> {
    await this.blobs.remove(RECEIPTS_FILE);
    state.liveBytes = 0;
    state.tailClean = true;
  }

  /** Removes segments beyond the kept count, oldest first, so a crash mid-way never leaves a gap. */
  private async prune(): Promise<void> {
    const drop = (await this.segments()).slice(this.keepFiles - 1).reverse();
    for (const s of drop) await this.blobs.remove(s.name);
  }

  /** Rotated segments, newest first. */
  private async segments(): Promise<{ name: string; seq: number }[]> {
    const out: { name: string; seq: number }[] = [];
    for (const name of await this.blobs.list('receipts.')) {
      const m = SEGMENT_RE.exec(name);
      if (m) out.push({ name, seq: Number(m[1]) });
    }
    return out.sort((a, b) => b.seq - a.seq);
  }
}

interface ResolvedQuery {
  since: number | null;
  until: number | null;
  agent: string | null;
  task: string | null;
  node: string | null;
  receipt_id: string | null;
  limit: number;
}

function matches(r: Receipt, f: ResolvedQuery): boolean {
  if (f.receipt_id !== null && r.receipt_id !== f.receipt_id) return false;
  if (f.agent !== null && r.agent_id !== f.agent) return false;
  if (f.task !== null && r.task_id !== f.task) return false;
  if (f.node !== null && !r.final_nodes.some((n) => n.id === f.node)) return false;
  if (f.since !== null || f.until !== null) {
    const t = Date.parse(r.ts);
    if (f.since !== null && t < f.since) return false;
    if (f.until !== null && t >= f.until) return false;
  }
  return true;
}

const DAY_MS = 24 * 3600 * 1000;

/** Whether the file's first readable receipt is older than `t`. */
function startsBefore(lines: readonly string[], t: number): boolean {
  for (const line of lines) {
    if (line.trim() === '') continue;
    const r = parseReceiptLine(line);
    if (r) return Date.parse(r.ts) < t;
  }
  return false;
}

/** One line as a receipt (without its seq); null when it is not JSON or not a receipt. */
function parseReceiptLine(line: string): Receipt | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!receiptLine.safeParse(value).success) return null;
  const { seq: _seq, ...receipt } = value as Receipt & { seq?: unknown };
  return receipt;
}

/** The seq of a sound receipt line; null for anything else (a torn or damaged line, one from before seqs). */
function seqOfLine(line: string): number | null {
  if (!line.startsWith('{"seq":')) return null;
  const r = parseReceiptLine(line);
  const seq = r ? (JSON.parse(line) as { seq?: unknown }).seq : null;
  return typeof seq === 'number' && Number.isInteger(seq) && seq > 0 ? seq : null;
}

/** Receipts in file order; lines that are torn (no final newline) or not receipts are counted, not thrown. */
export function parseReceiptLines(bytes: Uint8Array): { receipts: Receipt[]; skipped: number } {
  const parts = dec.decode(bytes).split('\n');
  const tail = parts.pop() ?? '';
  let skipped = tail.trim() === '' ? 0 : 1;
  const receipts: Receipt[] = [];
  for (const line of parts) {
    if (line.trim() === '') continue;
    const r = parseReceiptLine(line);
    if (r) receipts.push(r);
    else skipped++;
  }
  return { receipts, skipped };
}

/**
 * A time filter as ms since epoch: an ISO time (`2026-01-31`, `2026-01-31T12:00:00Z`), a time ago
 * relative to `now` (`45s`, `30m`, `2h`, `3d`, `1w`) or ms since epoch. Anything else is invalid_argument.
 */
export function parseTimeArg(value: string | number, now: number, name: string): number {
  const help = `${name} must be an ISO time (e.g. 2026-01-31 or 2026-01-31T12:00:00Z) or a time ago such as 30m, 2h, 3d or 1w`;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw new LithosError('invalid_argument', `${help} (got ${String(value)}).`, { [name]: String(value) });
  }
  if (typeof value !== 'string') throw new LithosError('invalid_argument', `${help} (got ${JSON.stringify(value)}).`);
  const s = value.trim();
  const ago = AGO_RE.exec(s);
  if (ago) return now - Number(ago[1]) * UNIT_MS[ago[2]];
  const t = ISO_RE.test(s) ? Date.parse(s) : NaN;
  if (Number.isNaN(t)) throw new LithosError('invalid_argument', `${help} (got "${value}").`, { [name]: value });
  return t;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return `must be ${issue.expected}`;
  if (issue.code === 'too_small') return 'must not be empty';
  if (issue.code === 'custom') return 'must be an ISO time';
  return issue.message.toLowerCase();
}
