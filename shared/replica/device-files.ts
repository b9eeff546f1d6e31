import type { Contribution } from './fields';

/**
 * The files a device writes into the sync folder (docs/devices.md#files): `<device>/device.json` (its tag and
 * name) and append-only segments `<device>/<000001>.jsonl`, one line per change of one of its shares:
 * `{"h": stamp, "t": table, "k": portable key, "c": share}`. A line holds the device's whole share of the row,
 * so the newest line per row is all a reader needs: lines may arrive late, twice, or out of order, and a
 * segment replaced by a compacted one loses nothing.
 */
export interface ShareLine {
  h: string;
  t: string;
  k: string;
  c: Contribution;
}

/** A device's folder name: the device fingerprint (never its secret id). */
export const DEVICE_DIR_RE = /^[a-z2-7]{16}$/;
/** A segment this device wrote; a sync tool's conflict copy of one (`000003 (conflict …).jsonl`) is read too. */
const SEGMENT_RE = /^(\d{6})\.jsonl$/;
export const SEGMENT_BYTES = 512 * 1024;

/** A segment of one of the device's streams: '' for memory.sqlite's rows, `tasks` for coordination.sqlite's. */
export function segmentPath(device: string, n: number, stream = ''): string {
  return `${device}/${stream ? `${stream}/` : ''}${String(n).padStart(6, '0')}.jsonl`;
}

/** This device's ledger ID allocations, mirrored from `.lithos/ledger/` so other devices count them (vault/ledger-ids.ts). */
export function ledgerMirrorPath(device: string): string {
  return `${device}/ledger.jsonl`;
}

export function deviceInfoPath(device: string): string {
  return `${device}/device.json`;
}

/** The device folder, stream and segment number of a path; `segment` null for a conflict copy or another file. */
export function classify(path: string): { device: string; stream: string; segment: number | null; lines: boolean } | null {
  const parts = path.split('/');
  if (parts.length < 2 || parts.length > 3 || !DEVICE_DIR_RE.test(parts[0])) return null;
  const device = parts[0];
  const stream = parts.length === 3 ? parts[1] : '';
  const name = parts[parts.length - 1];
  if (!name || !/^[a-z]*$/.test(stream)) return null;
  const m = SEGMENT_RE.exec(name);
  // Segments and their conflict copies start with the segment number; other files (ledger.jsonl) are not shares.
  return { device, stream, segment: m ? Number(m[1]) : null, lines: /^\d{6}/.test(name) && name.endsWith('.jsonl') };
}

const dec = new TextDecoder();
const enc = new TextEncoder();

function isShare(v: unknown): v is Contribution {
  if (typeof v !== 'object' || v === null) return false;
  const a = (v as { a?: unknown }).a;
  return Array.isArray(a) && typeof a[0] === 'boolean' && typeof a[1] === 'string';
}

/**
 * The complete, valid lines of a segment. A last line without its newline is a write still under way (or cut
 * by a sync): skipped now, read whole later. A line that is not a share is counted and skipped.
 */
export function parseLines(bytes: Uint8Array): { lines: ShareLine[]; torn: boolean; bad: number } {
  const parts = dec.decode(bytes).split('\n');
  const tail = parts.pop() ?? '';
  const out: ShareLine[] = [];
  let bad = 0;
  for (const text of parts) {
    if (text.trim() === '') continue;
    try {
      const v = JSON.parse(text) as Partial<ShareLine>;
      if (typeof v.h === 'string' && typeof v.t === 'string' && typeof v.k === 'string' && isShare(v.c)) out.push({ h: v.h, t: v.t, k: v.k, c: v.c });
      else bad++;
    } catch {
      bad++;
    }
  }
  return { lines: out, torn: tail.trim().length > 0, bad };
}

export function encodeLines(lines: readonly ShareLine[]): Uint8Array {
  return enc.encode(lines.map((l) => `${JSON.stringify({ h: l.h, t: l.t, k: l.k, c: l.c })}\n`).join(''));
}
