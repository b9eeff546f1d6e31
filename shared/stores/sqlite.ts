import type { Database, SqlJsStatic } from 'sql.js';
import type { BlobStore, Clock, Logger } from '../ports';
import type { StoreSchema } from './schema';
import { SqlDb } from './sql-db';
import { checksum } from './checksum';

export interface OpenDeps {
  sql: SqlJsStatic;
  blobs: BlobStore;
  clock: Clock;
  logger: Logger;
}

export interface OpenedStore {
  db: SqlDb;
  /** loaded: the file was read and verified; created: there was no file; reset: the file was damaged. */
  state: 'loaded' | 'created' | 'reset';
  /** Set when state is 'reset': why the file was rejected, and where it was moved. */
  damage?: { reason: string; keptAs: string };
  /** When loaded: `sealed` when the bytes were exactly those we last wrote, so SQLite's full integrity check was skipped. */
  check?: 'sealed' | 'full';
}

/**
 * `<file>.seal` records the size and checksum of the bytes last written to `<file>` (sealStore, after each
 * snapshot). Bytes that match it are what a verified, SQLite-written database exported, so opening them
 * skips PRAGMA integrity_check (~200 ms for a 3 MB store on first use of sql.js); anything else, including
 * a crash between the two writes, gets the full check.
 */
const SEAL = '.seal';

export async function sealStore(blobs: BlobStore, file: string, bytes: Uint8Array, journalSeq?: number): Promise<void> {
  const seal = { size: bytes.byteLength, checksum: checksum(bytes), ...(journalSeq !== undefined ? { journal_seq: journalSeq } : {}) };
  await blobs.writeAtomic(file + SEAL, new TextEncoder().encode(JSON.stringify(seal)));
}

/**
 * The journal seq the last written snapshot covered, from its seal (null: no seal, or one from before
 * seals recorded it). A loaded file covering less is an older copy than the one last saved.
 */
export async function sealedJournalSeq(blobs: BlobStore, file: string): Promise<number | null> {
  const raw = await blobs.read(file + SEAL);
  if (!raw) return null;
  try {
    const seq = (JSON.parse(new TextDecoder().decode(raw)) as { journal_seq?: unknown }).journal_seq;
    return typeof seq === 'number' && Number.isInteger(seq) ? seq : null;
  } catch {
    return null;
  }
}

async function isSealed(blobs: BlobStore, file: string, bytes: Uint8Array): Promise<boolean> {
  const raw = await blobs.read(file + SEAL);
  if (!raw) return false;
  try {
    const seal = JSON.parse(new TextDecoder().decode(raw)) as { size?: unknown; checksum?: unknown };
    return seal.size === bytes.byteLength && seal.checksum === checksum(bytes);
  } catch {
    return false;
  }
}

/**
 * Opens a store file: loads and verifies it, or creates it when absent. A damaged file is never deleted:
 * it is copied to `<file>.corrupt-<timestamp>` first, then removed so the fresh store takes its place
 * at the next snapshot (a crash in between only means the damaged file is found — and kept — again).
 */
export async function openStoreDb(deps: OpenDeps, schema: StoreSchema): Promise<OpenedStore> {
  const bytes = await deps.blobs.read(schema.file);
  if (bytes === null) return { db: fresh(deps.sql, schema), state: 'created' };

  let loaded: Database | null = null;
  let reason: string | null;
  const sealed = await isSealed(deps.blobs, schema.file, bytes);
  try {
    loaded = new deps.sql.Database(bytes);
    reason = verify(loaded, schema, { integrity: !sealed });
  } catch (err) {
    reason = err instanceof Error ? err.message : String(err);
  }
  if (reason === null && loaded) {
    const db = new SqlDb(loaded);
    migrate(db, schema);
    db.db.exec(schema.ddl);
    addMissingColumns(db, schema);
    return { db, state: 'loaded', check: sealed ? 'sealed' : 'full' };
  }
  try {
    loaded?.close();
  } catch {
    // A handle on a damaged file may refuse to close cleanly; it is discarded either way.
  }
  const keptAs = await quarantineName(deps, schema.file);
  await deps.blobs.writeAtomic(keptAs, bytes);
  await deps.blobs.remove(schema.file);
  deps.logger.warn(`${schema.file} was damaged and moved aside`, { reason, keptAs });
  return { db: fresh(deps.sql, schema), state: 'reset', damage: { reason: reason ?? 'unreadable', keptAs } };
}

/** null when the database is sound and is this store; otherwise a short human reason. */
export function verify(db: Database, schema: StoreSchema, opts: { integrity: boolean } = { integrity: true }): string | null {
  if (db.exec('PRAGMA page_count')[0]?.values[0]?.[0] === 0) return 'file is empty';
  const check = opts.integrity ? (db.exec('PRAGMA integrity_check')[0]?.values.map((r) => String(r[0])) ?? []) : ['ok'];
  if (check.length !== 1 || check[0] !== 'ok') {
    return `integrity check failed: ${check.slice(0, 3).join('; ') || 'no result'}`;
  }
  const present = new Set(
    (db.exec("SELECT name FROM sqlite_master WHERE type = 'table'")[0]?.values ?? []).map((r) => String(r[0])),
  );
  const missing = schema.tables.filter((t) => !present.has(t));
  if (missing.length) return `missing tables: ${missing.join(', ')}`;
  const version = Number(db.exec("SELECT value FROM meta WHERE key = 'schema_version'")[0]?.values[0]?.[0] ?? NaN);
  if (!Number.isInteger(version)) return 'no schema version';
  if (version > schema.version) return `written by a newer Lithos (store schema ${version}, this build reads ${schema.version})`;
  return null;
}

/** Runs the schema's migrations above the file's version (verify has refused a newer one) and records the new version. */
function migrate(db: SqlDb, schema: StoreSchema): void {
  const version = Number(db.db.exec("SELECT value FROM meta WHERE key = 'schema_version'")[0]?.values[0]?.[0] ?? NaN);
  if (!(version < schema.version)) return;
  for (const m of schema.migrations ?? []) if (m.to > version) m.run(db.db);
  db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", [String(schema.version)]);
}

function addMissingColumns(db: SqlDb, schema: StoreSchema): void {
  for (const c of schema.addedColumns ?? []) {
    const cols = (db.db.exec(`PRAGMA table_info(${c.table})`)[0]?.values ?? []).map((r) => String(r[1]));
    if (!cols.includes(c.column)) db.db.exec(c.ddl);
  }
}

function fresh(sql: SqlJsStatic, schema: StoreSchema): SqlDb {
  const db = new SqlDb(new sql.Database());
  db.db.exec(schema.ddl);
  db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", [String(schema.version)]);
  return db;
}

/** `memory.sqlite.corrupt-2026-01-01T00-00-00-000Z`, with a suffix if that name is taken. */
export async function quarantineName(deps: OpenDeps, file: string): Promise<string> {
  const stamp = new Date(deps.clock.now()).toISOString().replace(/[:.]/g, '-');
  const base = `${file}.corrupt-${stamp}`;
  const taken = new Set(await deps.blobs.list(base));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

export function readMeta(db: SqlDb, key: string): string | null {
  const row = db.one('SELECT value FROM meta WHERE key = ?', [key]);
  return row ? String(row[0]) : null;
}

export function writeMeta(db: SqlDb, key: string, value: string): void {
  db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [key, value]);
}
