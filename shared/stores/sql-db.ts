import type { BindParams, Database, SqlValue, Statement } from 'sql.js';

/**
 * A thin wrapper over a sql.js Database: cached prepared statements, atomic operations, and an export
 * that is safe to call between operations.
 *
 * Why one long-lived transaction: a sql.js database lives in an in-memory file, and every COMMIT copies
 * the changed pages into it (growing it in small steps, each a full copy). Durability comes from our
 * own snapshots and journal, not from SQLite's commits, so changes stay in one open transaction and are
 * committed only right before export(). Each operation is made atomic with a SAVEPOINT instead.
 */
export class SqlDb {
  private readonly statements = new Map<string, Statement>();
  private txOpen = false;
  private depth = 0;

  constructor(readonly db: Database) {
    this.configure();
  }

  /** Runs one statement (params bound positionally). */
  run(sql: string, params?: BindParams): void {
    this.begin();
    this.exec(sql, params);
  }

  /** All rows, as arrays in column order. */
  all(sql: string, params?: BindParams): SqlValue[][] {
    const s = this.stmt(sql);
    const rows: SqlValue[][] = [];
    try {
      if (params) s.bind(params);
      while (s.step()) rows.push(s.get());
    } finally {
      s.reset();
    }
    return rows;
  }

  /** The first row, or null. */
  one(sql: string, params?: BindParams): SqlValue[] | null {
    const s = this.stmt(sql);
    try {
      if (params) s.bind(params);
      return s.step() ? s.get() : null;
    } finally {
      s.reset();
    }
  }

  /** Rows changed by the last INSERT/UPDATE/DELETE. */
  changes(): number {
    return this.db.getRowsModified();
  }

  /** Runs `fn` atomically: if it throws, none of its changes remain (nested calls roll back only their own). */
  transaction<T>(fn: () => T): T {
    this.begin();
    const name = `op${this.depth}`;
    this.exec(`SAVEPOINT ${name}`);
    this.depth++;
    try {
      const out = fn();
      this.exec(`RELEASE ${name}`);
      return out;
    } catch (err) {
      try {
        this.exec(`ROLLBACK TO ${name}`);
        this.exec(`RELEASE ${name}`);
      } catch {
        // Some errors (out of memory, I/O) make SQLite roll back the whole transaction itself.
        this.txOpen = false;
      }
      throw err;
    } finally {
      this.depth--;
    }
  }

  /** The whole database file, with every change so far. */
  export(): Uint8Array {
    if (this.depth > 0) throw new Error('cannot export in the middle of an operation');
    this.commit();
    // Some sql.js versions close and reopen the connection in export(), leaving statements dangling.
    this.freeStatements();
    const bytes = this.db.export();
    this.configure();
    return bytes;
  }

  close(): void {
    this.commit();
    this.freeStatements();
    this.db.close();
  }

  private begin(): void {
    if (this.txOpen) return;
    this.exec('BEGIN');
    this.txOpen = true;
  }

  private commit(): void {
    if (!this.txOpen) return;
    this.exec('COMMIT');
    this.txOpen = false;
  }

  private exec(sql: string, params?: BindParams): void {
    const s = this.stmt(sql);
    try {
      if (params) s.bind(params);
      s.step();
    } finally {
      s.reset();
    }
  }

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private freeStatements(): void {
    for (const s of this.statements.values()) s.free();
    this.statements.clear();
  }

  /** SQLite's rollback journal only serves ROLLBACK TO, so it can stay in RAM. */
  private configure(): void {
    // A larger page cache keeps hot B-tree pages out of sql.js's in-memory file between commits.
    this.db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -32768;');
  }
}
