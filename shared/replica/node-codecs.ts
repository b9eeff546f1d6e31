import { EDGE_COLS, PHASE_COLS, STATS_COLS, toEdge, toPhaseRow, toStats } from '../stores/memory-rows';
import type { EdgeRow, LedgerPhaseRow, MemoryOp, NodeStats } from '../stores/memory-types';
import { DEFAULT_NODE_STATS } from '../stores/memory-types';
import type { SqlDb } from '../stores/sql-db';
import { newId } from '../model/ids';
import type { Codec, NodeKeys } from './codec';
import { mapNodeParts, num, numOrNull, parts, SEP, text } from './codec';

/** The learned rows that belong to one note or a pair of notes (docs/devices.md#what-travels). */

const byNode = (n: NodeKeys) => ({ toPortable: (k: string) => n.portable(k), toLocal: (k: string) => n.local(k) });

export const statsCodec: Codec = {
  t: 'stats',
  fields: {
    salience: { t: 'sum', min: 0, max: 1 },
    retrieval_count: { t: 'sum', int: true, min: 0 },
    use_count: { t: 'sum', int: true, min: 0 },
    ignored_count: { t: 'sum', int: true, min: 0 },
    misleading_count: { t: 'sum', int: true, min: 0 },
    last_retrieved_at: { t: 'max' },
    last_used_at: { t: 'max' },
    spaced_rep_strength: { t: 'lww' },
    per_queryclass_priors: { t: 'summap' },
  },
  touched: (_db, op) => (op.kind === 'stats' ? [op.row.node_id] : []),
  all: (db) => db.all('SELECT node_id FROM node_stats').map((r) => String(r[0])),
  toPortable: (k, n) => byNode(n).toPortable(k),
  toLocal: (k, n) => byNode(n).toLocal(k),
  read(db, key) {
    const r = db.one(`SELECT ${STATS_COLS} FROM node_stats WHERE node_id = ?`, [key]);
    if (!r) return null;
    const { node_id: _id, ...values } = toStats(r);
    return values;
  },
  write(_db, key, v) {
    if (v === null) return []; // stats go only with their note (purge), which never travels
    const row: NodeStats = {
      node_id: key,
      salience: num(v.salience, DEFAULT_NODE_STATS.salience),
      retrieval_count: num(v.retrieval_count),
      use_count: num(v.use_count),
      ignored_count: num(v.ignored_count),
      misleading_count: num(v.misleading_count),
      last_retrieved_at: numOrNull(v.last_retrieved_at),
      last_used_at: numOrNull(v.last_used_at),
      spaced_rep_strength: num(v.spaced_rep_strength, DEFAULT_NODE_STATS.spaced_rep_strength),
      per_queryclass_priors: (v.per_queryclass_priors ?? {}) as Record<string, number>,
    };
    return [{ kind: 'stats', row }];
  },
};

const tripleOf = (e: Pick<EdgeRow, 'from_id' | 'to_id' | 'type'>): string => [e.from_id, e.to_id, e.type].join(SEP);

function edgeByTriple(db: SqlDb, key: string): EdgeRow | null {
  const p = parts(key, 3);
  if (!p) return null;
  const r = db.one(`SELECT ${EDGE_COLS} FROM edges WHERE from_id = ? AND to_id = ? AND type = ?`, p);
  return r ? toEdge(r) : null;
}

/** Typed weighted edges, conflicts among them (their `conflict_state` is a resolution): keyed by (from, to, type). */
export const edgesCodec: Codec = {
  t: 'edge',
  fields: {
    edge_id: { t: 'lww' },
    weight: { t: 'sum' },
    namespace: { t: 'lww' },
    created_at: { t: 'lww' },
    updated_at: { t: 'max' },
    provenance_actor: { t: 'lww' },
    provenance_type: { t: 'lww' },
    evidence: { t: 'lww' },
    conflict_state: { t: 'lww' },
  },
  touched(db, op) {
    if (op.kind === 'edge') {
      const same = db.one(`SELECT ${EDGE_COLS} FROM edges WHERE edge_id = ?`, [op.row.edge_id]);
      const keys = [tripleOf(op.row)];
      if (same) keys.push(tripleOf(toEdge(same))); // REPLACE drops an edge holding the id under another triple
      return keys;
    }
    if (op.kind === 'edge_del') {
      const r = db.one(`SELECT ${EDGE_COLS} FROM edges WHERE edge_id = ?`, [op.edge_id]);
      return r ? [tripleOf(toEdge(r))] : [];
    }
    return [];
  },
  all: (db) => db.all(`SELECT ${EDGE_COLS} FROM edges`).map((r) => tripleOf(toEdge(r))),
  toPortable: (k, n) => mapNodeParts(k, 3, [0, 1], (x) => n.portable(x)),
  toLocal: (k, n) => mapNodeParts(k, 3, [0, 1], (x) => n.local(x)),
  read(db, key) {
    const e = edgeByTriple(db, key);
    if (!e) return null;
    const { from_id: _f, to_id: _t, type: _y, ...values } = e;
    return values;
  },
  write(db, key, v) {
    const existing = edgeByTriple(db, key);
    if (v === null) return existing ? [{ kind: 'edge_del', edge_id: existing.edge_id }] : [];
    const [from_id, to_id, type] = parts(key, 3) ?? [];
    if (from_id === undefined) return [];
    const row: EdgeRow = {
      edge_id: text(v.edge_id) || existing?.edge_id || newId(),
      from_id,
      to_id,
      type,
      weight: num(v.weight),
      namespace: text(v.namespace, 'default'),
      created_at: num(v.created_at),
      updated_at: num(v.updated_at),
      provenance_actor: text(v.provenance_actor),
      provenance_type: (text(v.provenance_type, 'rule') as EdgeRow['provenance_type']),
      evidence: v.evidence ?? null,
      conflict_state: typeof v.conflict_state === 'string' ? v.conflict_state : null,
    };
    const ops: MemoryOp[] = [];
    // The merged id wins everywhere: this device's edge for the triple takes it.
    if (existing && existing.edge_id !== row.edge_id) ops.push({ kind: 'edge_del', edge_id: existing.edge_id });
    ops.push({ kind: 'edge', row });
    return ops;
  },
};

function orderedPair(key: string | null): string | null {
  const p = key === null ? null : parts(key, 3);
  if (!p) return null;
  return (p[0] <= p[1] ? [p[0], p[1], p[2]] : [p[1], p[0], p[2]]).join(SEP);
}

/** Pairs of notes used together (co-activation). */
export const coactCodec: Codec = {
  t: 'coact',
  fields: { count: { t: 'sum', int: true, min: 0 }, last_at: { t: 'max' } },
  touched(db, op) {
    if (op.kind === 'coact') return [[op.a, op.b, op.namespace].join(SEP)];
    if (op.kind === 'coact_prune') {
      return db.all('SELECT node_id_a, node_id_b, namespace FROM coactivation WHERE last_at < ? AND count < ?', [op.before, op.below]).map((r) => r.map(String).join(SEP));
    }
    if (op.kind === 'coact_del') return [[op.a, op.b, op.namespace].join(SEP)];
    return [];
  },
  all: (db) => db.all('SELECT node_id_a, node_id_b, namespace FROM coactivation').map((r) => r.map(String).join(SEP)),
  // A pair is stored smaller id first, and ids differ between devices: both forms put the pair in order.
  toPortable: (k, n) => orderedPair(mapNodeParts(k, 3, [0, 1], (x) => n.portable(x))),
  toLocal: (k, n) => orderedPair(mapNodeParts(k, 3, [0, 1], (x) => n.local(x))),
  read(db, key) {
    const p = parts(key, 3);
    const r = p ? db.one('SELECT count, last_at FROM coactivation WHERE node_id_a = ? AND node_id_b = ? AND namespace = ?', p) : null;
    return r ? { count: Number(r[0]), last_at: Number(r[1]) } : null;
  },
  write(_db, key, v) {
    const p = parts(key, 3);
    if (!p) return [];
    const [a, b, namespace] = p;
    if (v === null || num(v.count) <= 0) return [{ kind: 'coact_del', a, b, namespace }];
    return [{ kind: 'coact', a, b, namespace, count: num(v.count), last_at: num(v.last_at) }];
  },
};

/**
 * A note's decayed term field: query-log expansion (the words of the questions a note answered) or the words
 * of the questions it was ignored for; scope '' or one agent. Weights add up across devices.
 */
function termFieldCodec(t: string, table: 'query_expansion' | 'ignored_terms', kind: 'expansion' | 'ignored_terms'): Codec {
  return {
    t,
    fields: { weight: { t: 'sum', min: 0 }, at: { t: 'max' } },
    touched: (_db, op) => (op.kind === kind ? op.rows.map((r) => [r.scope, r.node_id, r.term].join(SEP)) : []),
    all: (db) => db.all(`SELECT scope, node_id, term FROM ${table}`).map((r) => r.map(String).join(SEP)),
    toPortable: (k, n) => mapNodeParts(k, 3, [1], (x) => n.portable(x)),
    toLocal: (k, n) => mapNodeParts(k, 3, [1], (x) => n.local(x)),
    read(db, key) {
      const p = parts(key, 3);
      const r = p ? db.one(`SELECT weight, at FROM ${table} WHERE scope = ? AND node_id = ? AND term = ?`, p) : null;
      return r ? { weight: Number(r[0]), at: Number(r[1]) } : null;
    },
    write(_db, key, v) {
      const p = parts(key, 3);
      if (!p) return [];
      const [scope, node_id, term] = p;
      return [{ kind, rows: [{ scope, node_id, term, weight: v === null ? 0 : num(v.weight), at: v === null ? 0 : num(v.at) }] }];
    },
  };
}

export const expansionCodec = termFieldCodec('qexp', 'query_expansion', 'expansion');
export const ignoredTermsCodec = termFieldCodec('ignored', 'ignored_terms', 'ignored_terms');

/** A ledger entry's phase and vitality. */
export const phasesCodec: Codec = {
  t: 'phase',
  fields: { phase: { t: 'lww' }, phase_since: { t: 'lww' }, vitality: { t: 'lww' }, vitality_since: { t: 'lww' }, first_used_at: { t: 'lww' }, evaluated_at: { t: 'max' } },
  touched: (_db, op) => (op.kind === 'phase' ? [op.row.node_id] : []),
  all: (db) => db.all('SELECT node_id FROM ledger_phases').map((r) => String(r[0])),
  toPortable: (k, n) => n.portable(k),
  toLocal: (k, n) => n.local(k),
  read(db, key) {
    const r = db.one(`SELECT ${PHASE_COLS} FROM ledger_phases WHERE node_id = ?`, [key]);
    if (!r) return null;
    const { node_id: _id, ...values } = toPhaseRow(r);
    return values;
  },
  write(_db, key, v) {
    if (v === null) return [];
    const row: LedgerPhaseRow = {
      node_id: key,
      phase: text(v.phase, 'pattern') as LedgerPhaseRow['phase'],
      phase_since: num(v.phase_since),
      vitality: text(v.vitality, 'active') as LedgerPhaseRow['vitality'],
      vitality_since: num(v.vitality_since),
      first_used_at: numOrNull(v.first_used_at),
      evaluated_at: num(v.evaluated_at),
    };
    return [{ kind: 'phase', row }];
  },
};

/** Who created a note and last changed it (the trust boundary): an agent's edit on another device is still the agent's. */
export const editorsCodec: Codec = {
  t: 'editor',
  fields: { creator_kind: { t: 'lww' }, editor_kind: { t: 'lww' }, editor: { t: 'lww' }, fingerprint: { t: 'lww' }, at: { t: 'max' } },
  touched: (_db, op) => (op.kind === 'editor' ? [op.row.node_id] : []),
  all: (db) => db.all('SELECT node_id FROM note_editors').map((r) => String(r[0])),
  toPortable: (k, n) => n.portable(k),
  toLocal: (k, n) => n.local(k),
  read(db, key) {
    const r = db.one('SELECT creator_kind, editor_kind, editor, fingerprint, at FROM note_editors WHERE node_id = ?', [key]);
    // A note only the person ever wrote: every device reads that from the note itself, so it does not travel.
    if (r && r[0] === 'person' && r[1] === 'person') return null;
    return r ? { creator_kind: String(r[0]), editor_kind: String(r[1]), editor: r[2] === null ? null : String(r[2]), fingerprint: String(r[3]), at: Number(r[4]) } : null;
  },
  write(_db, key, v) {
    if (v === null) return []; // back to the person's: this device records that itself when the note arrives
    const kind = (x: unknown): 'person' | 'agent' => (x === 'agent' ? 'agent' : 'person');
    return [{ kind: 'editor', row: { node_id: key, creator_kind: kind(v.creator_kind), editor_kind: kind(v.editor_kind), editor: typeof v.editor === 'string' ? v.editor : null, fingerprint: text(v.fingerprint), at: num(v.at) } }];
  },
};
