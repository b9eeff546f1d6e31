import { loadSqlJs } from '../../bridge/sql';

describe('loadSqlJs', () => {
  it('loads sql.js once per process and gives a working SQLite', async () => {
    const first = loadSqlJs();
    expect(loadSqlJs()).toBe(first);
    const SQL = await first;
    const db = new SQL.Database();
    db.run('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (41), (1);');
    expect(db.exec('SELECT sum(x) FROM t')[0].values).toEqual([[42]]);
    db.close();
  });
});
