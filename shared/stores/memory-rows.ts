import type { SqlValue } from 'sql.js';
import { LithosError } from '../errors';
import type { SqlDb } from './sql-db';
import { applyReplicaOp } from './replica-rows';
import type { EdgeRow, EventRow, LedgerPhaseRow, MemoryOp, NodeRow, NodeStats, PrecedentRow } from './memory-types';

/** SQL and row mapping of memory.sqlite, shared by live mutations and journal replay. */

export const NODE_COLS = 'node_id, path, id_source, content_hash, deleted_at, last_path';
export const EDGE_COLS =
  'edge_id, from_id, to_id, type, weight, namespace, created_at, updated_at, provenance_actor, provenance_type, evidence, conflict_state';
export const PRECEDENT_COLS = 'precedent_id, at, query_class, query_text, agent_id, terms, used';
export const PHASE_COLS = 'node_id, phase, phase_since, vitality, vitality_since, first_used_at, evaluated_at';
export const EVENT_COLS = 'event_id, kind, at, actor, actor_kind, access_scope, namespace, summary, data, status, status_at';
export const STATS_COLS =
  'node_id, salience, retrieval_count, last_retrieved_at, last_used_at, ignored_count, misleading_count, spaced_rep_strength, per_queryclass_priors, use_count';

const str = (v: SqlValue): string | null => (v === null ? null : String(v));
const num = (v: SqlValue): number | null => (v === null ? null : Number(v));

export function toNode(r: SqlValue[]): NodeRow {
  return {
    node_id: String(r[0]),
    path: str(r[1]),
    id_source: r[2] === 'frontmatter' ? 'frontmatter' : 'registry',
    content_hash: str(r[3]),
    deleted_at: num(r[4]),
    last_path: str(r[5]),
  };
}

export function toEdge(r: SqlValue[]): EdgeRow {
  return {
    edge_id: String(r[0]),
    from_id: String(r[1]),
    to_id: String(r[2]),
    type: String(r[3]),
    weight: Number(r[4]),
    namespace: String(r[5]),
    created_at: Number(r[6]),
    updated_at: Number(r[7]),
    provenance_actor: String(r[8]),
    provenance_type: r[9] as EdgeRow['provenance_type'],
    evidence: r[10] === null ? null : (JSON.parse(String(r[10])) as unknown),
    conflict_state: str(r[11]),
  };
}

export function toStats(r: SqlValue[]): NodeStats {
  return {
    node_id: String(r[0]),
    salience: Number(r[1]),
    retrieval_count: Number(r[2]),
    last_retrieved_at: num(r[3]),
    last_used_at: num(r[4]),
    ignored_count: Number(r[5]),
    misleading_count: Number(r[6]),
    spaced_rep_strength: Number(r[7]),
    per_queryclass_priors: JSON.parse(String(r[8] ?? '{}')) as Record<string, number>,
    use_count: Number(r[9] ?? 0),
  };
}

export function toPhaseRow(r: SqlValue[]): LedgerPhaseRow {
  return {
    node_id: String(r[0]),
    phase: String(r[1]) as LedgerPhaseRow['phase'],
    phase_since: Number(r[2]),
    vitality: String(r[3]) as LedgerPhaseRow['vitality'],
    vitality_since: Number(r[4]),
    first_used_at: num(r[5]),
    evaluated_at: Number(r[6]),
  };
}

/** An events row; `links` come from event_links (memory-events.ts reads them). */
export function toEvent(r: SqlValue[], links: string[]): EventRow {
  return {
    event_id: String(r[0]),
    kind: String(r[1]) as EventRow['kind'],
    at: Number(r[2]),
    actor: String(r[3]),
    actor_kind: String(r[4]) as EventRow['actor_kind'],
    access_scope: String(r[5]),
    namespace: String(r[6]),
    summary: String(r[7]),
    data: r[8] === null ? null : (JSON.parse(String(r[8])) as unknown),
    links,
    status: String(r[9]) as EventRow['status'],
    status_at: Number(r[10]),
  };
}

const stringList = (v: SqlValue): string[] => {
  const parsed = JSON.parse(String(v ?? '[]')) as unknown;
  return Array.isArray(parsed) ? parsed.map(String) : [];
};

export function toPrecedent(r: SqlValue[]): PrecedentRow {
  return {
    precedent_id: String(r[0]),
    at: Number(r[1]),
    query_class: String(r[2]),
    query_text: String(r[3]),
    agent_id: str(r[4]),
    terms: stringList(r[5]),
    used: stringList(r[6]),
  };
}

const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** Applies one op. Callers validate first; during replay a failing op is reported and skipped. */
export function applyOp(db: SqlDb, op: MemoryOp): void {
  switch (op.kind) {
    case 'node': {
      const n = op.row;
      db.run(
        `INSERT INTO nodes (${NODE_COLS}) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(node_id) DO UPDATE SET path = excluded.path, id_source = excluded.id_source,
           content_hash = excluded.content_hash, deleted_at = excluded.deleted_at, last_path = excluded.last_path`,
        [n.node_id, n.path, n.id_source, n.content_hash, n.deleted_at, n.last_path],
      );
      return;
    }
    case 'purge':
      for (const id of op.node_ids) {
        db.run('DELETE FROM edges WHERE from_id = ? OR to_id = ?', [id, id]);
        db.run('DELETE FROM node_stats WHERE node_id = ?', [id]);
        db.run('DELETE FROM coactivation WHERE node_id_a = ? OR node_id_b = ?', [id, id]);
        db.run('DELETE FROM query_expansion WHERE node_id = ?', [id]);
        db.run('DELETE FROM ignored_terms WHERE node_id = ?', [id]);
        db.run('DELETE FROM ledger_phases WHERE node_id = ?', [id]);
        db.run('DELETE FROM note_editors WHERE node_id = ?', [id]);
        db.run('DELETE FROM nodes WHERE node_id = ?', [id]);
      }
      return;
    case 'edge': {
      const e = op.row;
      // REPLACE also clears a different edge holding the same (from, to, type): the op is the final state.
      db.run(`INSERT OR REPLACE INTO edges (${EDGE_COLS}) VALUES (${placeholders(12)})`, [
        e.edge_id, e.from_id, e.to_id, e.type, e.weight, e.namespace, e.created_at, e.updated_at,
        e.provenance_actor, e.provenance_type, e.evidence === undefined || e.evidence === null ? null : JSON.stringify(e.evidence),
        e.conflict_state,
      ]);
      return;
    }
    case 'edge_del':
      db.run('DELETE FROM edges WHERE edge_id = ?', [op.edge_id]);
      return;
    case 'stats': {
      const s = op.row;
      db.run(`INSERT OR REPLACE INTO node_stats (${STATS_COLS}) VALUES (${placeholders(10)})`, [
        s.node_id, s.salience, s.retrieval_count, s.last_retrieved_at, s.last_used_at, s.ignored_count,
        // journal lines written before schema 2 also carry decay_rate: not a column any more, ignored
        s.misleading_count, s.spaced_rep_strength, JSON.stringify(s.per_queryclass_priors),
        // journal lines written before use_count existed replay as 0
        s.use_count ?? 0,
      ]);
      return;
    }
    case 'coact':
      db.run('INSERT OR REPLACE INTO coactivation (node_id_a, node_id_b, namespace, count, last_at) VALUES (?, ?, ?, ?, ?)', [
        op.a, op.b, op.namespace, op.count, op.last_at,
      ]);
      return;
    case 'mark_del':
      for (const key of op.keys) db.run('DELETE FROM learning_marks WHERE key = ?', [key]);
      return;
    case 'coact_prune':
      db.run('DELETE FROM coactivation WHERE last_at < ? AND count < ?', [op.before, op.below]);
      return;
    case 'mark':
      db.run('INSERT OR REPLACE INTO learning_marks (key, value) VALUES (?, ?)', [op.key, JSON.stringify(op.value ?? null)]);
      return;
    case 'precedent': {
      const p = op.row;
      db.run(`INSERT OR REPLACE INTO precedents (${PRECEDENT_COLS}) VALUES (${placeholders(7)})`, [
        p.precedent_id, p.at, p.query_class, p.query_text, p.agent_id ?? null, JSON.stringify(p.terms), JSON.stringify(p.used),
      ]);
      return;
    }
    case 'precedent_del':
      for (const id of op.ids) db.run('DELETE FROM precedents WHERE precedent_id = ?', [id]);
      return;
    case 'affinity':
      for (const r of op.rows) {
        db.run('INSERT OR REPLACE INTO tag_affinity (term, tag, shown, used, at) VALUES (?, ?, ?, ?, ?)', [r.term, r.tag, r.shown, r.used, r.at]);
      }
      return;
    case 'expansion':
      for (const r of op.rows) {
        if (r.weight > 0) db.run('INSERT OR REPLACE INTO query_expansion (scope, node_id, term, weight, at) VALUES (?, ?, ?, ?, ?)', [r.scope, r.node_id, r.term, r.weight, r.at]);
        else db.run('DELETE FROM query_expansion WHERE scope = ? AND node_id = ? AND term = ?', [r.scope, r.node_id, r.term]);
      }
      return;
    case 'ignored_terms':
      for (const r of op.rows) {
        if (r.weight > 0) db.run('INSERT OR REPLACE INTO ignored_terms (scope, node_id, term, weight, at) VALUES (?, ?, ?, ?, ?)', [r.scope, r.node_id, r.term, r.weight, r.at]);
        else db.run('DELETE FROM ignored_terms WHERE scope = ? AND node_id = ? AND term = ?', [r.scope, r.node_id, r.term]);
      }
      return;
    case 'phase': {
      const r = op.row;
      db.run(`INSERT OR REPLACE INTO ledger_phases (${PHASE_COLS}) VALUES (${placeholders(7)})`, [
        r.node_id, r.phase, r.phase_since, r.vitality, r.vitality_since, r.first_used_at, r.evaluated_at,
      ]);
      return;
    }
    case 'assoc':
      for (const r of op.rows) {
        db.run('INSERT OR REPLACE INTO term_assoc (scope, term, shown, used, words, at) VALUES (?, ?, ?, ?, ?, ?)', [r.scope, r.term, r.shown, r.used, JSON.stringify(r.words), r.at]);
      }
      for (const k of op.drop) db.run('DELETE FROM term_assoc WHERE scope = ? AND term = ?', [k.scope, k.term]);
      return;
    case 'assoc_prune':
      db.run('DELETE FROM term_assoc WHERE at < ? AND shown < ?', [op.before, op.below]);
      return;
    case 'events':
      for (const e of op.rows) {
        db.run(`INSERT OR REPLACE INTO events (${EVENT_COLS}) VALUES (${placeholders(11)})`, [
          e.event_id, e.kind, e.at, e.actor, e.actor_kind, e.access_scope, e.namespace, e.summary,
          e.data === undefined || e.data === null ? null : JSON.stringify(e.data), e.status, e.status_at,
        ]);
        db.run('DELETE FROM event_links WHERE event_id = ?', [e.event_id]);
        for (const n of new Set(e.links)) db.run('INSERT INTO event_links (event_id, node_id) VALUES (?, ?)', [e.event_id, n]);
      }
      return;
    case 'event_status':
      for (const id of op.ids) db.run('UPDATE events SET status = ?, status_at = ? WHERE event_id = ?', [op.status, op.at, id]);
      return;
    case 'event_del':
      for (const id of op.ids) {
        db.run('DELETE FROM event_links WHERE event_id = ?', [id]);
        db.run('DELETE FROM events WHERE event_id = ?', [id]);
      }
      return;
    case 'affinity_prune':
      db.run("DELETE FROM tag_affinity WHERE at < ? AND shown < ? AND NOT (term = '' AND tag = '')", [op.before, op.below]);
      return;
    case 'target_alias': {
      const r = op.row;
      if (r.target === null) db.run('DELETE FROM target_aliases WHERE alias = ?', [r.alias]);
      else db.run('INSERT OR REPLACE INTO target_aliases (alias, target, at, actor) VALUES (?, ?, ?, ?)', [r.alias, r.target, r.at, r.actor]);
      return;
    }
    case 'editor': {
      const e = op.row;
      db.run('INSERT OR REPLACE INTO note_editors (node_id, creator_kind, editor_kind, editor, fingerprint, at) VALUES (?, ?, ?, ?, ?, ?)', [e.node_id, e.creator_kind, e.editor_kind, e.editor, e.fingerprint, e.at]);
      return;
    }
    case 'coact_del':
      db.run('DELETE FROM coactivation WHERE node_id_a = ? AND node_id_b = ? AND namespace = ?', [op.a, op.b, op.namespace]);
      return;
    case 'affinity_del':
      db.run('DELETE FROM tag_affinity WHERE term = ? AND tag = ?', [op.term, op.tag]);
      return;
    default:
      if (applyReplicaOp(db, op)) return;
      throw new Error(`unknown journal op ${JSON.stringify((op as { kind?: unknown }).kind)}`);
  }
}

/**
 * The row an upsertEdge should write: the edge with the same id, else the same (from, to, type), is
 * updated (keeping its id and created_at); otherwise a new edge. Throws on an id that would make a
 * second edge with an existing (from, to, type).
 */
export function planEdge(db: SqlDb, e: Omit<EdgeRow, 'edge_id' | 'created_at' | 'updated_at'> & { edge_id?: string }, now: number, newId: () => string): EdgeRow {
  const byTriple = db.one(`SELECT ${EDGE_COLS} FROM edges WHERE from_id = ? AND to_id = ? AND type = ?`, [e.from_id, e.to_id, e.type]);
  const byId = e.edge_id ? db.one(`SELECT ${EDGE_COLS} FROM edges WHERE edge_id = ?`, [e.edge_id]) : null;
  if (e.edge_id && byTriple && String(byTriple[0]) !== e.edge_id) {
    throw new LithosError('conflict', `Edge ${String(byTriple[0])} already links these notes with type "${e.type}".`, {
      edge_id: String(byTriple[0]),
    });
  }
  const existing = byId ? toEdge(byId) : byTriple ? toEdge(byTriple) : null;
  return {
    edge_id: existing?.edge_id ?? e.edge_id ?? newId(),
    from_id: e.from_id,
    to_id: e.to_id,
    type: e.type,
    weight: e.weight,
    namespace: e.namespace,
    created_at: existing?.created_at ?? now,
    updated_at: now,
    provenance_actor: e.provenance_actor,
    provenance_type: e.provenance_type,
    evidence: e.evidence === undefined ? null : e.evidence,
    conflict_state: e.conflict_state ?? null,
  };
}
