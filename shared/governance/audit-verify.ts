/** Verification of the audit chain across its files and against the head (audit.ts; `lithos audit verify`). */
import type { BlobStore } from '../ports';
import { AUDIT_FILE, auditFilesOldestFirst } from './audit-files';
import { AUDIT_HEAD_FILE, GENESIS_HASH, HEAD_LOST_ACTION, chainInput, dec, parseLine, readHead, sha256Hex, type AuditProblem, type AuditVerifyReport } from './audit-format';

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
