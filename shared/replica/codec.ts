import type { MemoryOp } from '../stores/memory-types';
import type { SqlDb } from '../stores/sql-db';
import type { MemoryNodes } from '../stores/memory-nodes';
import type { Fields, RowValues } from './fields';

/** Joins the parts of a composite key (a unit separator never appears in ids, paths, terms or tags). */
export const SEP = '\u001f';

/**
 * Node ids are not the same on every device: a note without a frontmatter `id` gets one from each device's
 * registry. Learned rows therefore travel keyed by a portable name of the note — `i:<id>` for a frontmatter
 * id, `p:<path>` otherwise — and are resolved back on arrival; a note not synced here yet does not resolve.
 */
export class NodeKeys {
  constructor(private readonly nodes: MemoryNodes) {}

  portable(nodeId: string): string | null {
    const n = this.nodes.byId(nodeId);
    if (!n || n.path === null || n.deleted_at !== null) return null;
    return n.id_source === 'frontmatter' ? `i:${n.node_id}` : `p:${n.path}`;
  }

  local(key: string): string | null {
    if (key.startsWith('i:')) {
      const n = this.nodes.byId(key.slice(2));
      return n && n.deleted_at === null ? n.node_id : null;
    }
    if (key.startsWith('p:')) return this.nodes.byPath(key.slice(2))?.node_id ?? null;
    return null;
  }

  /** A list of node ids as portable names (those that cannot travel are left out). */
  portableList(ids: readonly string[]): string[] {
    return ids.map((id) => this.portable(id)).filter((k): k is string => k !== null);
  }

  localList(keys: readonly string[]): string[] {
    return keys.map((k) => this.local(k)).filter((k): k is string => k !== null);
  }
}

/**
 * How one memory.sqlite table travels: the merge type of each field, the rows a local op touches, and the
 * translation of keys and values between this device and the portable form.
 */
export interface Codec<Op = MemoryOp> {
  /** The table's short name in the device files. */
  readonly t: string;
  readonly fields: Fields;
  /** Keys of the rows this local op is about to change (called before it applies). */
  touched(db: SqlDb, op: Op): string[];
  /** Every key the table holds (a full pass: the first share of a device, or after a crash). */
  all(db: SqlDb): string[];
  /** The portable key of a local key; null when the row cannot travel now. */
  toPortable(key: string, n: NodeKeys): string | null;
  /** The local key of a portable key; null when it does not resolve here yet. */
  toLocal(key: string, n: NodeKeys): string | null;
  /** The row's replicated values, node ids in them made portable; null when absent. */
  read(db: SqlDb, key: string, n: NodeKeys): RowValues | null;
  /** The ops that make the local row hold `values` (null: delete it). */
  write(db: SqlDb, key: string, values: RowValues | null, n: NodeKeys): Op[];
}

/** Splits a composite key into exactly `n` parts, or null. */
export function parts(key: string, n: number): string[] | null {
  const p = key.split(SEP);
  return p.length === n ? p : null;
}

/** Maps the node parts (by index) of a composite key; null when one does not map. */
export function mapNodeParts(key: string, n: number, nodeParts: readonly number[], map: (k: string) => string | null): string | null {
  const p = parts(key, n);
  if (!p) return null;
  for (const i of nodeParts) {
    const m = map(p[i]);
    if (m === null) return null;
    p[i] = m;
  }
  return p.join(SEP);
}

export const num = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
export const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const text = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
