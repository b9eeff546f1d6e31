import type { SqlValue } from 'sql.js';
import type { SqlDb } from '../stores/sql-db';
import { applyReplicaOp } from '../stores/replica-rows';
import type { AgentRow, ClaimRow, CoordinationOp, FindingRow, TaskOutcomeRow, TaskRow } from './coordination-types';

/** SQL and row mapping of coordination.sqlite, shared by live mutations and journal replay. */

export const AGENT_COLS = 'id, name, type, registered_at, last_seen_at, metadata';
export const TASK_COLS = 'id, title, description, status, created_by, created_at, completed_at, tags, metadata';
export const CLAIM_COLS = 'task_id, aspect, agent_id, claimed_at, expires_at';
export const FINDING_COLS = 'id, task_id, agent_id, summary, knowledge_id, created_at';
export const OUTCOME_COLS = 'task_id, agent_id, receipt_id, cited_nodes, misleading_nodes, output_text, recorded_at, learned_at';

const str = (v: SqlValue): string | null => (v === null ? null : String(v));
const num = (v: SqlValue): number | null => (v === null ? null : Number(v));
const json = <T>(v: SqlValue, fallback: T): T => (v === null ? fallback : (JSON.parse(String(v)) as T));

export function toAgent(r: SqlValue[]): AgentRow {
  return {
    id: String(r[0]),
    name: str(r[1]),
    type: str(r[2]),
    registered_at: Number(r[3]),
    last_seen_at: Number(r[4]),
    metadata: json(r[5], {}),
  };
}

export function toTask(r: SqlValue[]): TaskRow {
  return {
    id: String(r[0]),
    title: String(r[1]),
    description: String(r[2]),
    status: String(r[3]) as TaskRow['status'],
    created_by: String(r[4]),
    created_at: Number(r[5]),
    completed_at: num(r[6]),
    tags: json(r[7], []),
    metadata: json(r[8], {}),
  };
}

export function toClaim(r: SqlValue[]): ClaimRow {
  return { task_id: String(r[0]), aspect: String(r[1]), agent_id: String(r[2]), claimed_at: Number(r[3]), expires_at: Number(r[4]) };
}

export function toFinding(r: SqlValue[]): FindingRow {
  return { id: String(r[0]), task_id: String(r[1]), agent_id: String(r[2]), summary: String(r[3]), knowledge_id: str(r[4]), created_at: Number(r[5]) };
}

export function toOutcome(r: SqlValue[]): TaskOutcomeRow {
  return {
    task_id: String(r[0]),
    agent_id: String(r[1]),
    receipt_id: str(r[2]),
    cited_nodes: json(r[3], []),
    misleading_nodes: json(r[4], []),
    output_text: str(r[5]),
    recorded_at: Number(r[6]),
    learned_at: num(r[7]),
  };
}

/** An upsert rather than REPLACE: the row keeps its rowid, which orders tasks created in the same ms. */
function putTask(db: SqlDb, t: TaskRow): void {
  db.run(
    `INSERT INTO tasks (${TASK_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET title = excluded.title, description = excluded.description, status = excluded.status,
       created_by = excluded.created_by, created_at = excluded.created_at, completed_at = excluded.completed_at,
       tags = excluded.tags, metadata = excluded.metadata`,
    [
          t.id, t.title, t.description, t.status, t.created_by, t.created_at, t.completed_at, JSON.stringify(t.tags), JSON.stringify(t.metadata),
    ],
  );
}

function putOutcome(db: SqlDb, o: TaskOutcomeRow): void {
  db.run(`INSERT OR REPLACE INTO task_outcomes (${OUTCOME_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [
    o.task_id, o.agent_id, o.receipt_id, JSON.stringify(o.cited_nodes), JSON.stringify(o.misleading_nodes), o.output_text, o.recorded_at, o.learned_at,
  ]);
}

/** Applies one op. Callers validate first; during replay a failing op is reported and skipped. */
export function applyCoordinationOp(db: SqlDb, op: CoordinationOp): void {
  switch (op.kind) {
    case 'agent': {
      const a = op.row;
      db.run(
        `INSERT INTO agents (${AGENT_COLS}) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, type = excluded.type, registered_at = excluded.registered_at,
           last_seen_at = excluded.last_seen_at, metadata = excluded.metadata`,
        [a.id, a.name, a.type, a.registered_at, a.last_seen_at, JSON.stringify(a.metadata)],
      );
      return;
    }
    case 'task':
      putTask(db, op.row);
      return;
    case 'claim': {
      const c = op.row;
      db.run(`INSERT OR REPLACE INTO claims (${CLAIM_COLS}) VALUES (?, ?, ?, ?, ?)`, [c.task_id, c.aspect, c.agent_id, c.claimed_at, c.expires_at]);
      return;
    }
    case 'claim_del':
      db.run('DELETE FROM claims WHERE task_id = ? AND aspect = ?', [op.task_id, op.aspect]);
      return;
    case 'finding': {
      const f = op.row;
      db.run(`INSERT OR REPLACE INTO findings (${FINDING_COLS}) VALUES (?, ?, ?, ?, ?, ?)`, [f.id, f.task_id, f.agent_id, f.summary, f.knowledge_id, f.created_at]);
      return;
    }
    case 'complete':
      putTask(db, op.task);
      // Claims end with the task but are kept as lapsed ones, not deleted: whoever worked on a completed task
      // stays "on" it (its notes, its working memory), as a claim that ran out would.
      db.run('UPDATE claims SET expires_at = MAX(claimed_at + 1, ?) WHERE task_id = ? AND expires_at > ?', [op.task.completed_at, op.task.id, op.task.completed_at]);
      putOutcome(db, op.outcome);
      return;
    case 'outcome':
      putOutcome(db, op.row);
      return;
    default:
      if (applyReplicaOp(db, op)) return;
      throw new Error(`unknown journal op ${JSON.stringify((op as { kind?: unknown }).kind)}`);
  }
}
