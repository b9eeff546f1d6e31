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
import { LithosError } from '../errors';
import { silentLogger, type BlobStore, type Clock, type Logger } from '../ports';
import type { StoreLoss } from '../stores/store-loss';
import { AUDIT_FILE, DEFAULT_AUDIT_MAX_BYTES, auditFilesNewestFirst, auditSegments, liveIsStaleCopy, sealLiveAudit } from './audit-files';

export { AUDIT_FILE } from './audit-files';
export { AUDIT_HEAD_FILE, GENESIS_HASH, HEAD_LOST_ACTION, type AuditActor, type AuditEntry, type AuditProblem, type AuditProblemKind, type AuditVerifyReport } from './audit-format';
export { verifyAudit } from './audit-verify';
import { AUDIT_HEAD_FILE, GENESIS_HASH, HEAD_LOST_ACTION, PREFIX, chainInput, dec, enc, firstEntry, lastEntry, NEWLINE, parseLine, readHead, sha256Hex, type AuditActor, type AuditEntry, type AuditVerifyReport } from './audit-format';
import { verifyAudit } from './audit-verify';

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
  'replica.merge',
  'replica.compact',
  'reflect.reject',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditInput {
  action: AuditAction | (string & {});
  actor: AuditActor;
  /** What it acted on: a note id, an edge id, a path, a receipt id… */
  target?: string | null;
  /** Small JSON details (before/after values, counts). Keep it small: it is read by people. */
  data?: Record<string, unknown>;
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

