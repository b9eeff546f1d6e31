import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { LithosError } from '../shared/errors';

let cached: Promise<SqlJsStatic> | undefined;

/**
 * sql.js for Node, loaded once per process. The wasm is located through require.resolve so it is found
 * both from the sources and from the esbuild bundle (dist/bridge/cli.js keeps sql.js external, and is CommonJS).
 * A failed load is not memoised, so a later call can retry.
 */
export function loadSqlJs(): Promise<SqlJsStatic> {
  cached ??= initSqlJs({ locateFile: (file: string) => require.resolve(`sql.js/dist/${file}`) }).catch((err: unknown) => {
    cached = undefined;
    throw new LithosError('internal', `Could not load sql.js (its sql-wasm.wasm must sit in node_modules/sql.js/dist): ${err instanceof Error ? err.message : String(err)}`);
  });
  return cached;
}
