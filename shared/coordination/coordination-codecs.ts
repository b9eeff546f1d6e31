import type { Codec } from '../replica/codec';
import { num, numOrNull, parts, SEP, strings, text } from '../replica/codec';
import { AGENT_COLS, CLAIM_COLS, FINDING_COLS, TASK_COLS, toAgent, toClaim, toFinding, toTask } from './coordination-rows';
import type { CoordinationOp, TaskRow } from './coordination-types';

/**
 * How coordination.sqlite travels between devices (docs/devices.md): tasks, claims, findings and agents, so
 * the agents on a laptop and those on a desktop see one list of tasks. Task outcomes stay where they were
 * recorded: the learning they teach travels as memory.sqlite's rows, and applying an outcome on two devices
 * would count it twice. A claim is a lease between agents, not a lock across devices: two devices may grant
 * the same aspect before they see each other's claim; the newer claim then holds on both.
 */

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const same = { toPortable: (k: string) => k, toLocal: (k: string) => k };

export const tasksCodec: Codec<CoordinationOp> = {
  t: 'task',
  fields: {
    title: { t: 'lww' }, description: { t: 'lww' }, status: { t: 'lww' }, created_by: { t: 'lww' }, created_at: { t: 'lww' },
    completed_at: { t: 'lww' }, tags: { t: 'lww' }, metadata: { t: 'lww' },
  },
  touched: (_db, op) => (op.kind === 'task' ? [op.row.id] : op.kind === 'complete' ? [op.task.id] : []),
  all: (db) => db.all('SELECT id FROM tasks').map((r) => String(r[0])),
  ...same,
  read(db, key) {
    const r = db.one(`SELECT ${TASK_COLS} FROM tasks WHERE id = ?`, [key]);
    if (!r) return null;
    const { id: _id, ...values } = toTask(r);
    return values;
  },
  write(_db, key, v) {
    if (v === null) return [];
    const status = v.status === 'completed' || v.status === 'cancelled' ? v.status : 'open';
    const row: TaskRow = { id: key, title: text(v.title), description: text(v.description), status, created_by: text(v.created_by), created_at: num(v.created_at), completed_at: numOrNull(v.completed_at), tags: strings(v.tags), metadata: obj(v.metadata) };
    return [{ kind: 'task', row }];
  },
};

export const claimsCodec: Codec<CoordinationOp> = {
  t: 'claim',
  fields: { agent_id: { t: 'lww' }, claimed_at: { t: 'lww' }, expires_at: { t: 'lww' } },
  touched(db, op) {
    if (op.kind === 'claim') return [[op.row.task_id, op.row.aspect].join(SEP)];
    if (op.kind === 'claim_del') return [[op.task_id, op.aspect].join(SEP)];
    // Completion lapses the task's claims.
    if (op.kind === 'complete') return db.all('SELECT task_id, aspect FROM claims WHERE task_id = ?', [op.task.id]).map((r) => r.map(String).join(SEP));
    return [];
  },
  all: (db) => db.all('SELECT task_id, aspect FROM claims').map((r) => r.map(String).join(SEP)),
  ...same,
  read(db, key) {
    const p = parts(key, 2);
    const r = p ? db.one(`SELECT ${CLAIM_COLS} FROM claims WHERE task_id = ? AND aspect = ?`, p) : null;
    if (!r) return null;
    const { task_id: _t, aspect: _a, ...values } = toClaim(r);
    return values;
  },
  write(_db, key, v) {
    const p = parts(key, 2);
    if (!p) return [];
    const [task_id, aspect] = p;
    if (v === null) return [{ kind: 'claim_del', task_id, aspect }];
    const claimed_at = num(v.claimed_at);
    return [{ kind: 'claim', row: { task_id, aspect, agent_id: text(v.agent_id), claimed_at, expires_at: Math.max(claimed_at + 1, num(v.expires_at)) } }];
  },
};

export const findingsCodec: Codec<CoordinationOp> = {
  t: 'finding',
  fields: { task_id: { t: 'lww' }, agent_id: { t: 'lww' }, summary: { t: 'lww' }, knowledge_id: { t: 'lww' }, created_at: { t: 'lww' } },
  touched: (_db, op) => (op.kind === 'finding' ? [op.row.id] : []),
  all: (db) => db.all('SELECT id FROM findings').map((r) => String(r[0])),
  ...same,
  read(db, key, n) {
    const r = db.one(`SELECT ${FINDING_COLS} FROM findings WHERE id = ?`, [key]);
    if (!r) return null;
    const { id: _id, ...f } = toFinding(r);
    return { ...f, knowledge_id: f.knowledge_id === null ? null : n.portable(f.knowledge_id) };
  },
  write(_db, key, v, n) {
    if (v === null) return [];
    const knowledge = typeof v.knowledge_id === 'string' ? n.local(v.knowledge_id) : null;
    return [{ kind: 'finding', row: { id: key, task_id: text(v.task_id), agent_id: text(v.agent_id), summary: text(v.summary), knowledge_id: knowledge, created_at: num(v.created_at) } }];
  },
};

export const agentsCodec: Codec<CoordinationOp> = {
  t: 'agent',
  fields: { name: { t: 'lww' }, type: { t: 'lww' }, registered_at: { t: 'lww' }, last_seen_at: { t: 'max' }, metadata: { t: 'lww' } },
  touched: (_db, op) => (op.kind === 'agent' ? [op.row.id] : []),
  all: (db) => db.all('SELECT id FROM agents').map((r) => String(r[0])),
  ...same,
  read(db, key) {
    const r = db.one(`SELECT ${AGENT_COLS} FROM agents WHERE id = ?`, [key]);
    if (!r) return null;
    const { id: _id, ...values } = toAgent(r);
    return values;
  },
  write(_db, key, v) {
    if (v === null) return [];
    return [{ kind: 'agent', row: { id: key, name: typeof v.name === 'string' ? v.name : null, type: typeof v.type === 'string' ? v.type : null, registered_at: num(v.registered_at), last_seen_at: num(v.last_seen_at), metadata: obj(v.metadata) } }];
  },
};

export const COORDINATION_CODECS: readonly Codec<CoordinationOp>[] = [tasksCodec, claimsCodec, findingsCodec, agentsCodec];
