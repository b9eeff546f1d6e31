import { CODECS } from './codecs';

/**
 * How far this device has read each file of the devices folder (byte offset after the last whole line) and,
 * for its own files, the newest stamp in each: kept in its replica_devices row, so the first round after an
 * open reads only what grew while it was closed instead of every file again. Saved in the same write as the
 * shares those lines brought in, so a mark never runs ahead of what was taken in. Tied to the tables this
 * version knows: lines of a table it did not know were left for later, so a version that knows more reads
 * everything again.
 */
export interface ReadMarks {
  seen: Map<string, number>;
  own: Map<string, string>;
}

export const READ_KEY = 'read';
const TABLES = CODECS.map((c) => c.t).join(',');

interface Saved {
  tables: string;
  /** path → [offset] or [offset, newest own stamp] */
  files: Record<string, [number] | [number, string]>;
}

export function loadReadMarks(info: unknown): ReadMarks {
  const out: ReadMarks = { seen: new Map(), own: new Map() };
  const saved = (info as Record<string, unknown> | null)?.[READ_KEY] as Partial<Saved> | undefined;
  if (!saved || saved.tables !== TABLES || typeof saved.files !== 'object' || saved.files === null) return out;
  for (const [path, v] of Object.entries(saved.files)) {
    if (!Array.isArray(v) || typeof v[0] !== 'number' || !Number.isInteger(v[0]) || v[0] < 0) continue;
    out.seen.set(path, v[0]);
    if (typeof v[1] === 'string') out.own.set(path, v[1]);
  }
  return out;
}

/** The marks to save (the caller drops files that are gone). */
export function saveReadMarks(m: ReadMarks): Saved {
  const files: Saved['files'] = {};
  for (const [path, n] of [...m.seen].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const h = m.own.get(path);
    files[path] = h === undefined ? [n] : [n, h];
  }
  return { tables: TABLES, files };
}
