import { SqlDb } from '../../shared/stores/sql-db';
import { loadSql } from '../twins/sql';

async function table(): Promise<SqlDb> {
  const sql = await loadSql();
  const db = new SqlDb(new sql.Database());
  db.run('CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT NOT NULL)');
  return db;
}
const keys = (db: SqlDb) => db.all('SELECT k FROM t ORDER BY k').map((r) => r[0]);

describe('SqlDb', () => {
  it('a failing operation leaves none of its changes', async () => {
    const db = await table();
    expect(() =>
      db.transaction(() => {
        db.run("INSERT INTO t VALUES ('a', 'x')");
        db.run("INSERT INTO t VALUES ('b', NULL)");
      }),
    ).toThrow(/NOT NULL/);
    expect(keys(db)).toEqual([]);
  });

  it('a nested operation that fails and is caught rolls back only itself', async () => {
    const db = await table();
    db.transaction(() => {
      db.run("INSERT INTO t VALUES ('a', 'x')");
      expect(() =>
        db.transaction(() => {
          db.run("INSERT INTO t VALUES ('b', 'y')");
          db.run("INSERT INTO t VALUES ('c', NULL)");
        }),
      ).toThrow(/NOT NULL/);
      db.run("INSERT INTO t VALUES ('d', 'z')");
    });
    expect(keys(db)).toEqual(['a', 'd']);
  });

  it('export includes every change, and statements keep working after it', async () => {
    const sql = await loadSql();
    const db = await table();
    db.run("INSERT INTO t VALUES ('a', 'x')");
    const bytes = db.export();
    db.run("INSERT INTO t VALUES ('b', 'y')");
    expect(keys(db)).toEqual(['a', 'b']);
    const copy = new SqlDb(new sql.Database(bytes));
    expect(keys(copy)).toEqual(['a']);
    expect(db.export().byteLength).toBeGreaterThan(0);
    expect(() => db.transaction(() => db.export())).toThrow(/middle of an operation/);
  });
});
