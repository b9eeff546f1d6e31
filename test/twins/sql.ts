import initSqlJs, { type SqlJsStatic } from 'sql.js';

let cached: Promise<SqlJsStatic> | undefined;

/** sql.js for tests, loaded once per worker from node_modules. */
export function loadSql(): Promise<SqlJsStatic> {
  cached ??= initSqlJs();
  return cached;
}
