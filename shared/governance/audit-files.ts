/**
 * The files the audit chain lives in: the live `audit.jsonl` and, once it grows past a size, sealed segments
 * `audit.<first seq>.jsonl` (nine digits, so names sort in chain order). Segments are never pruned: the trail is
 * kept whole, and the chain runs across files (the first entry of each file links to the last of the one before),
 * so `lithos audit verify` checks it end to end and a removed segment shows as a gap.
 *
 * Rotation without rename (as the receipts log): the live file is copied whole to its segment name with
 * writeAtomic, then removed. A crash between the two leaves the live file and the newest segment holding the same
 * bytes: readers skip such a live file, and the next open removes it.
 */
import type { BlobStore } from '../ports';

export const AUDIT_FILE = 'audit.jsonl';
/** Seal the live file into a segment once it is larger than this. */
export const DEFAULT_AUDIT_MAX_BYTES = 8 * 1024 * 1024;

const SEGMENT_RE = /^audit\.(\d{9})\.jsonl$/;
export const auditSegmentName = (firstSeq: number): string => `audit.${String(firstSeq).padStart(9, '0')}.jsonl`;

export interface AuditFile {
  name: string;
  bytes: Uint8Array;
}

/** Sealed segments, oldest first. */
export async function auditSegments(blobs: BlobStore): Promise<string[]> {
  return (await blobs.list('audit.')).filter((n) => SEGMENT_RE.test(n)).sort();
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether the live file is only a copy of the newest segment (a rotation cut short by a crash). */
export async function liveIsStaleCopy(blobs: BlobStore, live: Uint8Array | null, segments: readonly string[]): Promise<boolean> {
  if (!live || live.byteLength === 0 || segments.length === 0) return false;
  const newest = await blobs.read(segments[segments.length - 1]);
  return newest !== null && sameBytes(newest, live);
}

/** Every file of the chain, oldest first (segments, then the live file unless it is a stale copy). */
export async function* auditFilesOldestFirst(blobs: BlobStore): AsyncGenerator<AuditFile> {
  const segments = await auditSegments(blobs);
  for (const name of segments) {
    const bytes = await blobs.read(name);
    if (bytes) yield { name, bytes };
  }
  const live = await blobs.read(AUDIT_FILE);
  if (live && !(await liveIsStaleCopy(blobs, live, segments))) yield { name: AUDIT_FILE, bytes: live };
}

/** The same files newest first, read one at a time (the newest entries are usually in the first). */
export async function* auditFilesNewestFirst(blobs: BlobStore): AsyncGenerator<AuditFile> {
  const segments = await auditSegments(blobs);
  const live = await blobs.read(AUDIT_FILE);
  if (live && !(await liveIsStaleCopy(blobs, live, segments))) yield { name: AUDIT_FILE, bytes: live };
  for (const name of [...segments].reverse()) {
    const bytes = await blobs.read(name);
    if (bytes) yield { name, bytes };
  }
}

/** Seals the live file (whose first entry has `firstSeq`) into its segment, then removes it. */
export async function sealLiveAudit(blobs: BlobStore, live: Uint8Array, firstSeq: number): Promise<void> {
  await blobs.writeAtomic(auditSegmentName(firstSeq), live);
  await blobs.remove(AUDIT_FILE);
}
