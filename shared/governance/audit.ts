/**
 * The audit trail: `.lithos/audit.jsonl`, one entry per write or learning action, each carrying the hash
 * of the entry before it, so any edited, removed or reordered line breaks the chain (`verify`). Past a size
 * the live file is sealed into a segment and the chain goes on in a new one (audit-files.ts).
 *
 * Line layout: `{"hash":"<64 hex>",` + the rest of the entry's JSON. The hash is SHA-256 over
 * `<prev hash>\n<entry JSON without hash>`; the prefix has a fixed width, so verification recomputes it
 * from the exact bytes written rather than from a re-serialisation (key order, number formatting).
 *
 * Truncation at the end cannot be seen from the chain alone, so the head (seq + hash of the newest entry)
 * is also kept in `audit.head.json`, rewritten atomically after each append. A crash between the append
 * and the head write leaves the log one entry ahead: verify accepts that (it is what a crash looks like)
 * and the next append repairs the head. A log shorter than its head is reported as truncated.
 */
import { z } from 'zod';
import { LithosError } from '../errors';
import { silentLogger, type BlobStore, type Clock, type Logger } from '../ports';
import type { StoreLoss } from '../stores/store-loss';
import { AUDIT_FILE, DEFAULT_AUDIT_MAX_BYTES, auditFilesNewestFirst, auditFilesOldestFirst, auditSegments, liveIsStaleCopy, sealLiveAudit } from './audit-files';

export { AUDIT_FILE } from './audit-files';
export const AUDIT_HEAD_FILE = 'audit.head.json';
/** prev of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** Actions the engine records; other strings are accepted (extensions), these are the documented ones. */
export const AUDIT_ACTIONS = [
  'note.write',
  'note.delete',
  'note.protected',
  'note.unprotected',
  'edge.upsert',
  'edge.delete',
  'feedback',
  'decay',
  'quarantine',
  'conflict.create',
  'conflict.resolve',
  'proposal.create',
  'proposal.accept',
  'proposal.reject',
  'policy.set',
  'learning.set',
  'hypothesis.promote',
  'concept.update',
  'consolidate',
  'summary.refresh',
  'ledger.phase',
  'ledger.vitality',
  'agent.key_issue',
  'agent.key_revoke',
  'agent.register',
  'task.create',
  'task.claim',
  'task.renew',
  'task.release',
  'task.complete',
  'task.cancel',
  'finding.post',
  'event.record',
  'events.age',
  'events.git',
  'store.damaged',
  'external.edit',
  'webhook.failed',
  'webhook.dropped',
  'ledger.intent',
  'target.merge',
  'ledger.state',
  'ledger.id_allocate',
  'ledger.device_tag',
  'graveyard.move',
  'reflect.propose',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditActor {
  kind: 'human' | 'agent' | 'rule' | 'system';
  /** Agent id, rule name, or null (the person, the engine itself). */
  id: string | null;
}

export interface AuditInput {
  action: AuditAction | (string & {});
  actor: AuditActor;
  /** What it acted on: a note id, an edge id, a path, a receipt id… */
  target?: string | null;
  /** Small JSON details (before/after values, counts). Keep it small: it is read by people. */
  data?: Record<string, unknown>;
}

export interface AuditEntry {
  hash: string;
  seq: number;
  ts: string;
  prev: string;
  action: string;
  actor: AuditActor;
  target: string | null;
  data: Record<string, unknown>;
}

/**
 * torn_line: a fragment that is not an entry (a crash while appending). It is not fatal on its own: an
 * edited or removed entry also breaks the chain or the head, which are.
 */
export type AuditProblemKind = 'torn_line' | 'unreadable_head' | 'hash_mismatch' | 'chain_broken' | 'seq_gap' | 'truncated' | 'head_lost';

export interface AuditProblem {
  /** 1-based line number in `file` (0 for the head file). */
  line: number;
  /** The file of the chain the line is in: audit.jsonl or a sealed segment. */
  file?: string;
  kind: AuditProblemKind;
  message: string;
}

export interface AuditVerifyReport {
  ok: boolean;
  entries: number;
  head: { seq: number; hash: string } | null;
  problems: AuditProblem[];
}

/** The entry that records a head file found missing or unreadable at open (continueAfterDamage). */
export const HEAD_LOST_ACTION = 'audit.head_lost';

const PREFIX = '{"hash":"';
const PREFIX_LEN = PREFIX.length + 64 + 2; // `{"hash":"` + hex + `",`
const HEX64 = /^[0-9a-f]{64}$/;

const headSchema = z.object({ seq: z.number().int().min(0), hash: z.string().regex(HEX64) });
const entrySchema = z.looseObject({
  seq: z.number().int().min(1),
  ts: z.string(),
  prev: z.string().regex(HEX64),
  action: z.string().min(1),
  actor: z.object({ kind: z.enum(['human', 'agent', 'rule', 'system']), id: z.string().nullable() }),
  target: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});

const enc = new TextEncoder();
const dec = new TextDecoder();
const NEWLINE = 0x0a;

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', enc.encode(text));
  const bytes = new Uint8Array(digest);
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += bytes[i].toString(16).padStart(2, '0');
  return out;
}

const chainInput = (prev: string, body: string): string => `${prev}\n${body}`;

interface ParsedLine {
  entry: AuditEntry;
  body: string;
}

/** Splits a line into its hash and the exact body it was computed over; null when it is not an entry. */
function parseLine(line: string): ParsedLine | null {
  if (!line.startsWith(PREFIX) || line.length <= PREFIX_LEN || line.slice(PREFIX.length + 64, PREFIX_LEN) !== '",') return null;
  const hash = line.slice(PREFIX.length, PREFIX.length + 64);
  if (!HEX64.test(hash)) return null;
  const body = '{' + line.slice(PREFIX_LEN);
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return null;
  }
  const r = entrySchema.safeParse(raw);
  if (!r.success) return null;
  return { entry: { ...(r.data as Omit<AuditEntry, 'hash'>), hash }, body };
}

/** The newest entry in a file's bytes, read from the end a line at a time (a file holds up to 8 MB). */
function lastEntry(bytes: Uint8Array): { seq: number; hash: string } | null {
  let end = bytes.length;
  while (end > 0) {
    const start = bytes.lastIndexOf(NEWLINE, end - 1) + 1;
    const line = dec.decode(bytes.subarray(start, end)).replace(/\n$/, '');
    const p = line ? parseLine(line) : null;
    if (p) return { seq: p.entry.seq, hash: p.entry.hash };
    end = start - 1;
  }
  return null;
}

/** The oldest entry in a file's bytes (names the segment it is sealed into). */
function firstEntry(bytes: Uint8Array): { seq: number } | null {
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(NEWLINE, start);
    const end = nl === -1 ? bytes.length : nl;
    const p = end > start ? parseLine(dec.decode(bytes.subarray(start, end))) : null;
    if (p) return { seq: p.entry.seq };
    start = end + 1;
  }
  return null;
}

/** audit.head.json: the newest entry's seq and hash as last recorded. */
async function readHead(blobs: BlobStore): Promise<{ seq: number; hash: string } | 'missing' | 'unreadable'> {
  const bytes = await blobs.read(AUDIT_HEAD_FILE);
  if (!bytes) return 'missing';
  let raw: unknown = null;
  try {
    raw = JSON.parse(dec.decode(bytes));
  } catch {
    raw = null;
  }
  const h = headSchema.safeParse(raw);
  return h.success ? h.data : 'unreadable';
}

/**
 * Where the next entry links to. Normally the log's newest entry; but when the log ends before what
 * audit.head.json records (entries removed from the end, the file emptied or deleted), the chain continues
 * from the head instead: starting afresh at seq 1 and overwriting the head would erase the only evidence
 * of the removal, and `lithos audit verify` would then call the log intact.
 * `lost`: how many entries the log lacks (the open reports it as a loss).
 */
async function continueAfterDamage(blobs: BlobStore, fromLog: { seq: number; hash: string }): Promise<{ seq: number; hash: string; headLost?: 'missing' | 'unreadable'; lost?: number }> {
  const head = await readHead(blobs);
  // Without a head the log's own end is the best link; but the first new entry will rewrite the head, and
  // with it the only sign of damage, so that entry is preceded by one recording the loss (AuditLog.write).
  if (head === 'missing' || head === 'unreadable') return fromLog.seq > 0 ? { ...fromLog, headLost: head } : fromLog;
  const consistent = (fromLog.seq === head.seq && fromLog.hash === head.hash) || fromLog.seq === head.seq + 1;
  if (consistent || fromLog.seq > head.seq + 1) return fromLog;
  return { ...head, lost: head.seq - fromLog.seq || 1 };
}

export class AuditLog {
  private head: { seq: number; hash: string };
  private queue: Promise<unknown> = Promise.resolve();
  private tailClean = true;
  /** The head file was missing or unreadable at open: recorded in the chain before the next entry. */
  private headLost: 'missing' | 'unreadable' | null = null;
  /** Entries found missing from the end of the log at open (the head records more), for the engine's warnings. */
  damage: StoreLoss | null = null;
  private liveBytes = 0;
  private maxBytes = DEFAULT_AUDIT_MAX_BYTES;
  private readonly listeners = new Set<(entry: AuditEntry) => void>();

  private constructor(
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    head: { seq: number; hash: string },
  ) {
    this.head = head;
  }

  /** Finds the newest intact entry, so appends continue the chain after a crash or a torn line. */
  static async open(deps: { blobs: BlobStore; clock: Clock; logger?: Logger; maxBytes?: number }): Promise<AuditLog> {
    const logger = deps.logger ?? silentLogger;
    const segments = await auditSegments(deps.blobs);
    let bytes = await deps.blobs.read(AUDIT_FILE);
    if (await liveIsStaleCopy(deps.blobs, bytes, segments)) {
      // A seal cut short by a crash: the segment holds these very bytes, so the copy goes.
      await deps.blobs.remove(AUDIT_FILE);
      bytes = null;
    }
    let head = { seq: 0, hash: GENESIS_HASH };
    let tailClean = true;
    if (bytes && bytes.length > 0) {
      tailClean = bytes[bytes.length - 1] === NEWLINE;
      head = lastEntry(bytes) ?? head;
      if (!tailClean) logger.warn(`${AUDIT_FILE}: the last line is incomplete (a crash while writing); it is kept and reported by \`lithos audit verify\`.`);
    }
    // Just sealed (or a live file holding no entry yet): the chain's end is in the newest segment.
    for (let i = segments.length - 1; i >= 0 && head.seq === 0; i--) {
      const seg = await deps.blobs.read(segments[i]);
      head = (seg && lastEntry(seg)) || head;
    }
    const continued = await continueAfterDamage(deps.blobs, head);
    const log = new AuditLog(deps.blobs, deps.clock, logger, { seq: continued.seq, hash: continued.hash });
    log.liveBytes = bytes?.byteLength ?? 0;
    log.maxBytes = deps.maxBytes ?? DEFAULT_AUDIT_MAX_BYTES;
    if (continued.lost !== undefined) {
      const message =
        `${AUDIT_FILE} ends at entry ${head.seq} but ${AUDIT_HEAD_FILE} records entry ${continued.seq}: ${continued.lost} audit entr${continued.lost === 1 ? 'y was' : 'ies were'} removed, cut or replaced. ` +
        `New entries continue from entry ${continued.seq}, so \`lithos audit verify\` keeps reporting the gap.`;
      logger.warn(message);
      log.damage = { file: AUDIT_FILE, counts: { lost_entries: continued.lost }, message };
    }
    log.tailClean = tailClean;
    log.headLost = continued.headLost ?? null;
    return log;
  }

  /** The newest entry's seq and hash (seq 0 and the genesis hash when empty). */
  get last(): { seq: number; hash: string } {
    return { ...this.head };
  }

  /** Appends durably (in call order) and resolves with the entry as written. */
  append(input: AuditInput): Promise<AuditEntry> {
    const run = this.queue.then(() => this.write(input));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(input: AuditInput): Promise<AuditEntry> {
    if (!input.action) throw new LithosError('invalid_argument', 'An audit entry needs an action.');
    if (this.headLost) {
      // Cleared only once written: should this append fail (disk full), the next one records it.
      await this.writeEntry({ action: HEAD_LOST_ACTION, actor: { kind: 'system', id: null }, data: { found: this.headLost, log_seq: this.head.seq } });
      this.headLost = null;
    }
    return this.writeEntry(input);
  }

  private async writeEntry(input: AuditInput): Promise<AuditEntry> {
    const seq = this.head.seq + 1;
    const ts = new Date(this.clock.now()).toISOString();
    const rest = { seq, ts, prev: this.head.hash, action: input.action, actor: input.actor, target: input.target ?? null, data: input.data ?? {} };
    const body = JSON.stringify(rest);
    const hash = await sha256Hex(chainInput(this.head.hash, body));
    const line = `${PREFIX}${hash}",${body.slice(1)}\n`;
    // A torn fragment from a crash gets its own line: it stays visible to verify, never glued to this entry.
    const written = enc.encode(this.tailClean ? line : '\n' + line);
    await this.blobs.append(AUDIT_FILE, written);
    this.liveBytes += written.byteLength;
    this.tailClean = true;
    this.head = { seq, hash };
    try {
      await this.blobs.writeAtomic(AUDIT_HEAD_FILE, enc.encode(JSON.stringify(this.head) + '\n'));
    } catch (err) {
      // The entry is durable; a stale head only makes verify say "one ahead", which it accepts.
      this.logger.warn(`${AUDIT_HEAD_FILE}: could not be updated (${(err as Error).message}).`);
    }
    if (this.liveBytes > this.maxBytes) await this.seal();
    const entry = { hash, ...rest };
    for (const listener of this.listeners) {
      try {
        listener(entry);
      } catch (err) {
        this.logger.warn(`an audit listener failed: ${String(err)}`);
      }
    }
    return entry;
  }

  /** Calls `listener` with each entry once it is durable (public-events.ts derives the event stream from it). */
  onAppend(listener: (entry: AuditEntry) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Seals the live file into a segment; on failure the entries stay in the live file and the next append retries. */
  private async seal(): Promise<void> {
    try {
      const live = await this.blobs.read(AUDIT_FILE);
      const first = live ? firstEntry(live) : null;
      if (!live || !first) return;
      await sealLiveAudit(this.blobs, live, first.seq);
      this.liveBytes = 0;
    } catch (err) {
      this.logger.warn(`${AUDIT_FILE}: could not be sealed into a segment (${(err as Error).message}); it keeps growing until it can.`);
    }
  }

  /**
   * Newest first; `limit` entries at most. Unreadable lines are skipped (verify reports them). `actions` keeps
   * those actions only; `since` (ISO) stops at the first older entry (the log is in time order).
   */
  async recent(opts: { limit?: number; action?: string; actions?: readonly string[]; since?: string; target?: string } = {}): Promise<AuditEntry[]> {
    await this.queue;
    const out: AuditEntry[] = [];
    const limit = opts.limit ?? 50;
    for await (const file of auditFilesNewestFirst(this.blobs)) {
      const lines = dec.decode(file.bytes).split('\n');
      for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
        const p = lines[i] ? parseLine(lines[i]) : null;
        if (!p) continue;
        if (opts.since !== undefined && p.entry.ts < opts.since) return out;
        if (opts.action && p.entry.action !== opts.action) continue;
        if (opts.actions && !opts.actions.includes(p.entry.action)) continue;
        if (opts.target && p.entry.target !== opts.target) continue;
        out.push(p.entry);
      }
      if (out.length >= limit) break;
    }
    return out;
  }

  /** Re-reads the whole log and checks every hash, link and sequence number, and the head. */
  async verify(): Promise<AuditVerifyReport> {
    await this.queue;
    return verifyAudit(this.blobs);
  }
}

/** The log's own chain: each entry's hash, its link to the one before, and the sequence numbers. */
async function walkLog(blobs: BlobStore): Promise<{ problems: AuditProblem[]; entries: number; seq: number; prev: string }> {
  const w: Walk = { problems: [], entries: 0, seq: 0, prev: GENESIS_HASH };
  for await (const file of auditFilesOldestFirst(blobs)) await walkFile(w, file.name, file.bytes);
  return w;
}

interface Walk {
  problems: AuditProblem[];
  entries: number;
  seq: number;
  prev: string;
}

/** One file of the chain, continuing from the entry `w` ended at. */
async function walkFile(w: Walk, file: string, bytes: Uint8Array): Promise<void> {
  const lines = dec.decode(bytes).split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const add = (p: AuditProblem): void => void w.problems.push({ ...p, file });
  let firstOfFile = true;
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const p = lines[i] === '' ? null : parseLine(lines[i]);
    if (!p) {
      add({ line: n, kind: 'torn_line', message: 'not an audit entry (an incomplete line left by a crash while writing, or damage)' });
      continue;
    }
    w.entries++;
    // Where a file starts, a break in the chain means a whole file went missing or was replaced.
    const boundary = !firstOfFile ? '' : file !== AUDIT_FILE ? ` (the first of ${file}: a segment before it was removed or replaced)` : w.seq > 0 ? ` (the first of ${file}: the newest segment was removed or replaced)` : '';
    firstOfFile = false;
    const { entry, body } = p;
    if (entry.action === HEAD_LOST_ACTION) {
      add({ line: n, kind: 'head_lost', message: `before entry ${entry.seq} the engine found ${AUDIT_HEAD_FILE} ${JSON.stringify(entry.data.found ?? 'missing').replace(/"/g, '')} while the log ended at entry ${JSON.stringify(entry.data.log_seq ?? '?').replace(/"/g, '')}: entries may have been removed from the end before that point` });
    }
    if ((await sha256Hex(chainInput(entry.prev, body))) !== entry.hash) {
      add({ line: n, kind: 'hash_mismatch', message: `entry ${entry.seq} was edited: its hash does not match its content` });
    }
    if (entry.prev !== w.prev) {
      add({ line: n, kind: 'chain_broken', message: `entry ${entry.seq} does not follow the entry before it${boundary || ' (a line was removed, inserted or moved)'}` });
    }
    if (entry.seq !== w.seq + 1) {
      add({ line: n, kind: 'seq_gap', message: `entry ${entry.seq} follows entry ${w.seq}${boundary}` });
    }
    w.prev = entry.hash;
    w.seq = entry.seq;
  }
}

/** Verification without an open log (the CLI's `lithos audit verify`). */
export async function verifyAudit(blobs: BlobStore): Promise<AuditVerifyReport> {
  // The engine appends to the log, then writes the head. Read in that order too, so a snapshot can only
  // find the head ahead of the log when an append landed between the two reads: then read both again,
  // rather than report a live vault's newest entries as removed.
  let walked = await walkLog(blobs);
  let read = await readHead(blobs);
  for (let retry = 0; retry < 5 && typeof read === 'object' && read.seq > walked.seq; retry++) {
    walked = await walkLog(blobs);
    read = await readHead(blobs);
  }
  const { problems, entries, seq, prev } = walked;
  let head: AuditVerifyReport['head'] = null;
  if (read !== 'missing') {
    if (read === 'unreadable') {
      problems.push({ line: 0, kind: 'unreadable_head', message: `${AUDIT_HEAD_FILE} is not readable` });
    } else {
      head = read;
      // The log may be one entry ahead of the head (crash between the two writes), never behind it.
      if (head.seq > seq) {
        problems.push({ line: 0, kind: 'truncated', message: `the log ends at entry ${seq} but ${AUDIT_HEAD_FILE} records entry ${head.seq}: entries were removed from the end` });
      } else if (head.seq === seq && head.hash !== prev) {
        problems.push({ line: 0, kind: 'truncated', message: `the newest entry ${seq} is not the one ${AUDIT_HEAD_FILE} records: the end of the log was replaced` });
      } else if (head.seq < seq - 1) {
        problems.push({ line: 0, kind: 'chain_broken', message: `${AUDIT_HEAD_FILE} records entry ${head.seq} but the log has ${seq}: entries were added outside the engine` });
      }
    }
  } else if (entries > 0) {
    problems.push({ line: 0, kind: 'truncated', message: `${AUDIT_HEAD_FILE} is missing` });
  }
  // Torn lines are what crashes leave, and a head lost at open has crashes and sync clients among its
  // causes too: reported, but the chain across them stands. What the lost head would have shown (entries cut
  // from the end before it) cannot be told any more; the entry keeps the fact, for a person to judge.
  const ok = problems.every((p) => p.kind === 'torn_line' || p.kind === 'head_lost');
  return { ok, entries, head, problems };
}
