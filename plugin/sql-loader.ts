import initSqlJs, { type SqlJsStatic } from 'sql.js';
// Inlined by esbuild's binary loader: the plugin never fetches or reads a .wasm file, which keeps it
// working on mobile and under Obsidian's app:// origin. It is the wasm that matches the browser
// build of sql.js, which is what `sql.js` resolves to in the plugin bundle (platform: browser).
import wasmBytes from 'sql.js/dist/sql-wasm-browser.wasm';

let cached: Promise<SqlJsStatic> | undefined;

/**
 * sql.js for the plugin, initialised once. The browser build has no Node code path at all, so
 * nothing depends on Electron's renderer reporting process.type === 'renderer' (the Node build's
 * only guard against reaching for `fs`).
 */
export function loadSql(): Promise<SqlJsStatic> {
  cached ??= initSqlJs({ wasmBinary: exactBuffer(wasmBytes) });
  return cached;
}

/** sql.js wants an ArrayBuffer; copy out exactly the view's bytes in case it shares a larger buffer. */
function exactBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
