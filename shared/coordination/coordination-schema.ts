import { REPLICA_DDL } from '../stores/replica-rows';
import type { StoreSchema } from '../stores/schema';

/**
 * coordination.sqlite: agents, tasks, aspect claims, findings and task outcomes. Unlike cache.sqlite it
 * cannot be re-derived from the notes, so it is journaled (coordination.journal) and keeps its previous
 * snapshot as coordination.sqlite.prev. Statements are idempotent so they run on every open.
 * JSON columns (metadata, tags, node lists) hold JSON text.
 */
export const COORDINATION_SCHEMA: StoreSchema = {
  file: 'coordination.sqlite',
  version: 1,
  tables: ['meta', 'agents', 'tasks', 'claims', 'findings', 'task_outcomes'],
  ddl: `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS agents (
  id TEXT PRIMARY KEY,
  name TEXT,
  type TEXT,
  registered_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS tasks (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('open', 'completed', 'cancelled')),
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  completed_at INTEGER,
  tags TEXT NOT NULL DEFAULT '[]',
  metadata TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS tasks_status ON tasks(status, created_at);
CREATE INDEX IF NOT EXISTS tasks_created_by ON tasks(created_by);
-- The key is the rule: one row per (task, aspect), so two agents can never hold the same aspect.
CREATE TABLE IF NOT EXISTS claims (
  task_id TEXT NOT NULL,
  aspect TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  claimed_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL CHECK (expires_at > claimed_at),
  PRIMARY KEY (task_id, aspect)
);
CREATE INDEX IF NOT EXISTS claims_agent ON claims(agent_id, expires_at);
CREATE TABLE IF NOT EXISTS findings (
  id TEXT PRIMARY KEY,
  task_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  summary TEXT NOT NULL,
  knowledge_id TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS findings_task ON findings(task_id, created_at);
-- Evidence handed to the learning layer (issue 5), which applies it and sets learned_at. Stored as given.
CREATE TABLE IF NOT EXISTS task_outcomes (
  task_id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL,
  receipt_id TEXT,
  cited_nodes TEXT NOT NULL DEFAULT '[]',
  misleading_nodes TEXT NOT NULL DEFAULT '[]',
  output_text TEXT,
  recorded_at INTEGER NOT NULL,
  learned_at INTEGER
);
CREATE INDEX IF NOT EXISTS task_outcomes_pending ON task_outcomes(learned_at, recorded_at);
${REPLICA_DDL}`,
};

export const COORDINATION_JOURNAL = 'coordination.journal';
/** The snapshot before the current one: what recovery starts from when the current file is damaged. */
export const COORDINATION_PREVIOUS = 'coordination.sqlite.prev';
