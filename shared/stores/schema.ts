/**
 * Table definitions of the sql.js store, memory.sqlite (the cache is a binary file: cache-codec.ts). Every
 * statement is idempotent (IF NOT EXISTS) so it can run on every open: a store written by an older build
 * gains new tables/indexes without a migration step; a change older builds cannot read bumps `version`
 * with a migration.
 */
import type { Database } from 'sql.js';
import { REPLICA_DDL } from './replica-rows';

export interface StoreSchema {
  /** File name under `.lithos/`. */
  file: string;
  /** Version of the store's own layout (kept in `meta`); bumped only with a migration. */
  version: number;
  ddl: string;
  /** Tables whose absence means the file is not (or no longer) this store. */
  tables: readonly string[];
  /**
   * Columns added after a table first shipped: SQLite has no ADD COLUMN IF NOT EXISTS, so each is added
   * on open only when the table lacks it (idempotent, no version bump: older builds ignore the column).
   */
  addedColumns?: readonly { table: string; column: string; ddl: string }[];
  /**
   * Steps that bring a file of an older `version` up to this one, run in order on open (before `ddl`) for
   * each step above the file's version; the file then records `version`. A build older than a file's
   * version refuses the file (sqlite.ts verify), so a bump is only for changes older builds cannot read.
   */
  migrations?: readonly { to: number; run: (db: Database) => void }[];
}

const META_DDL = `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`;

export const MEMORY_SCHEMA: StoreSchema = {
  file: 'memory.sqlite',
  version: 2,
  tables: ['meta', 'nodes', 'edges', 'node_stats', 'coactivation'],
  ddl: `${META_DDL}
CREATE TABLE IF NOT EXISTS nodes (
  node_id TEXT PRIMARY KEY,
  path TEXT UNIQUE,
  id_source TEXT NOT NULL CHECK (id_source IN ('frontmatter', 'registry')),
  content_hash TEXT,
  deleted_at INTEGER,
  last_path TEXT
);
CREATE INDEX IF NOT EXISTS nodes_last_path ON nodes(last_path);
CREATE INDEX IF NOT EXISTS nodes_content_hash ON nodes(content_hash);
CREATE INDEX IF NOT EXISTS nodes_deleted_at ON nodes(deleted_at);
CREATE TABLE IF NOT EXISTS edges (
  edge_id TEXT PRIMARY KEY,
  from_id TEXT NOT NULL,
  to_id TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type <> ''),
  weight REAL NOT NULL,
  namespace TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  provenance_actor TEXT NOT NULL,
  provenance_type TEXT NOT NULL CHECK (provenance_type IN ('human', 'agent', 'rule')),
  evidence TEXT,
  conflict_state TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS edges_triple ON edges(from_id, to_id, type);
CREATE INDEX IF NOT EXISTS edges_from ON edges(from_id);
CREATE INDEX IF NOT EXISTS edges_to ON edges(to_id);
CREATE INDEX IF NOT EXISTS edges_type ON edges(type);
CREATE INDEX IF NOT EXISTS edges_namespace ON edges(namespace);
CREATE INDEX IF NOT EXISTS edges_from_type ON edges(from_id, type);
CREATE TABLE IF NOT EXISTS node_stats (
  node_id TEXT PRIMARY KEY,
  salience REAL NOT NULL DEFAULT 0.5,
  retrieval_count INTEGER NOT NULL DEFAULT 0,
  last_retrieved_at INTEGER,
  last_used_at INTEGER,
  ignored_count INTEGER NOT NULL DEFAULT 0,
  misleading_count INTEGER NOT NULL DEFAULT 0,
  spaced_rep_strength REAL NOT NULL,
  per_queryclass_priors TEXT NOT NULL DEFAULT '{}',
  use_count INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS coactivation (
  node_id_a TEXT NOT NULL,
  node_id_b TEXT NOT NULL,
  namespace TEXT NOT NULL,
  count INTEGER NOT NULL,
  last_at INTEGER NOT NULL,
  PRIMARY KEY (node_id_a, node_id_b, namespace),
  CHECK (node_id_a < node_id_b)
);
CREATE INDEX IF NOT EXISTS coactivation_b ON coactivation(node_id_b);
-- learning-layer bookmarks: receipts whose feedback was applied, the last decay run (shared/learning)
CREATE TABLE IF NOT EXISTS learning_marks (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- precedents: past queries whose results were used, with the used node ids (JSON arrays; newest kept, bounded)
CREATE TABLE IF NOT EXISTS precedents (
  precedent_id TEXT PRIMARY KEY,
  at INTEGER NOT NULL,
  query_class TEXT NOT NULL,
  query_text TEXT NOT NULL,
  agent_id TEXT,
  terms TEXT NOT NULL,
  used TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS precedents_at ON precedents(at);
-- term-tag affinity learned from feedback: notes with this tag shown / used for queries with this term
CREATE TABLE IF NOT EXISTS tag_affinity (
  term TEXT NOT NULL,
  tag TEXT NOT NULL,
  shown INTEGER NOT NULL,
  used INTEGER NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (term, tag)
);
-- query-log document expansion learned from feedback: words of the questions a note was used for, per scope
CREATE TABLE IF NOT EXISTS query_expansion (
  scope TEXT NOT NULL,
  node_id TEXT NOT NULL,
  term TEXT NOT NULL,
  weight REAL NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (scope, node_id, term)
);
CREATE INDEX IF NOT EXISTS query_expansion_node ON query_expansion(node_id);
-- the knowledge ledger's phase and vitality per entry, computed from use (learning/ledger-phases.ts)
CREATE TABLE IF NOT EXISTS ledger_phases (
  node_id TEXT PRIMARY KEY,
  phase TEXT NOT NULL CHECK (phase IN ('pattern', 'emergent', 'canonical')),
  phase_since INTEGER NOT NULL,
  vitality TEXT NOT NULL CHECK (vitality IN ('active', 'decaying', 'dormant')),
  vitality_since INTEGER NOT NULL,
  first_used_at INTEGER,
  evaluated_at INTEGER NOT NULL
);
-- episodic events (model/events.ts): short-lived records aged out by the learning pass (learning/event-ageing.ts)
CREATE TABLE IF NOT EXISTS events (
  event_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('agent', 'human', 'system')),
  access_scope TEXT NOT NULL,
  namespace TEXT NOT NULL,
  summary TEXT NOT NULL,
  data TEXT,
  status TEXT NOT NULL CHECK (status IN ('active', 'archived')),
  status_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS events_at ON events(at);
CREATE INDEX IF NOT EXISTS events_status ON events(status, status_at);
-- an event's links to notes (node ids): a link to a note that exists keeps the event forever
CREATE TABLE IF NOT EXISTS event_links (
  event_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  PRIMARY KEY (event_id, node_id)
);
CREATE INDEX IF NOT EXISTS event_links_node ON event_links(node_id);
-- the ledger's target aliases: a merged target's normalised name → the target it was merged into (shared/ledger)
CREATE TABLE IF NOT EXISTS target_aliases (
  alias TEXT PRIMARY KEY,
  target TEXT NOT NULL,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL
);
-- the trust boundary: who created each note and who last changed its title or body (the person or an agent),
-- and the fingerprint of that title and body
CREATE TABLE IF NOT EXISTS note_editors (
  node_id TEXT PRIMARY KEY,
  creator_kind TEXT NOT NULL CHECK (creator_kind IN ('person', 'agent')),
  editor_kind TEXT NOT NULL CHECK (editor_kind IN ('person', 'agent')),
  editor TEXT,
  fingerprint TEXT NOT NULL,
  at INTEGER NOT NULL
);
-- learned term associations from feedback: per query term, notes shown / used and per word of them (JSON), per scope
CREATE TABLE IF NOT EXISTS term_assoc (
  scope TEXT NOT NULL,
  term TEXT NOT NULL,
  shown INTEGER NOT NULL,
  used INTEGER NOT NULL,
  words TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (scope, term)
);
-- words of the questions a note was ignored for, per scope (its ignored penalty counts for questions like them)
CREATE TABLE IF NOT EXISTS ignored_terms (
  scope TEXT NOT NULL,
  node_id TEXT NOT NULL,
  term TEXT NOT NULL,
  weight REAL NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (scope, node_id, term)
);
CREATE INDEX IF NOT EXISTS ignored_terms_node ON ignored_terms(node_id);
${REPLICA_DDL}`,
  addedColumns: [{ table: 'node_stats', column: 'use_count', ddl: 'ALTER TABLE node_stats ADD COLUMN use_count INTEGER NOT NULL DEFAULT 0' }],
  migrations: [
    // 2: node_stats.decay_rate went: nothing ever read it (salience decays by the note type's half-life).
    // spaced_rep_strength became a recall interval in days; the old fading bonus says nothing about one, so
    // every note starts again at the first interval (1 day, model/spaced-repetition.ts).
    {
      to: 2,
      run: (db) => {
        dropColumnIfPresent(db, 'node_stats', 'decay_rate');
        db.exec('UPDATE node_stats SET spaced_rep_strength = 1');
      },
    },
  ],
};

function dropColumnIfPresent(db: Database, table: string, column: string): void {
  const cols = (db.exec(`PRAGMA table_info(${table})`)[0]?.values ?? []).map((r) => String(r[1]));
  if (cols.includes(column)) db.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
}
