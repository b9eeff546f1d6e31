/**
 * The audit trail's line format (audit.ts): each line is `{"hash":"<64 hex>",` + the rest of the entry's JSON,
 * the hash SHA-256 over `<prev hash>\n<entry JSON without hash>`; parsing, hashing and the head file, shared by
 * the log (audit.ts) and its verification (audit-verify.ts).
 */
import { z } from 'zod';
import type { BlobStore } from '../ports';

export const AUDIT_HEAD_FILE = 'audit.head.json';
/** prev of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

export interface AuditActor {
  kind: 'human' | 'agent' | 'rule' | 'system';
  /** Agent id, rule name, or null (the person, the engine itself). */
  id: string | null;
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

export const PREFIX = '{"hash":"';
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

export const enc = new TextEncoder();
export const dec = new TextDecoder();
export const NEWLINE = 0x0a;

export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', enc.encode(text));
  const bytes = new Uint8Array(digest);
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += bytes[i].toString(16).padStart(2, '0');
  return out;
}

export const chainInput = (prev: string, body: string): string => `${prev}\n${body}`;

interface ParsedLine {
  entry: AuditEntry;
  body: string;
}

/** Splits a line into its hash and the exact body it was computed over; null when it is not an entry. */
export function parseLine(line: string): ParsedLine | null {
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
export function lastEntry(bytes: Uint8Array): { seq: number; hash: string } | null {
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
export function firstEntry(bytes: Uint8Array): { seq: number } | null {
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
export async function readHead(blobs: BlobStore): Promise<{ seq: number; hash: string } | 'missing' | 'unreadable'> {
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
