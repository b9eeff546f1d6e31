/**
 * Ports: the only way the engine talks to the world. Each has an Obsidian adapter (plugin/),
 * a Node adapter (bridge/) and an in-memory twin (test/twins/). Shapes follow Obsidian's API
 * (Vault, DataAdapter, FileManager.processFrontMatter) so the plugin adapters stay thin.
 */

/** A Markdown file as the vault lists it. Paths are vault-relative and '/'-separated. */
export interface VaultFileStat {
  path: string;
  /** Modification time, ms since epoch. */
  mtime: number;
  /** Size in bytes. */
  size: number;
}

export type VaultEvent =
  | { kind: 'create'; path: string }
  | { kind: 'modify'; path: string }
  | { kind: 'delete'; path: string }
  | { kind: 'rename'; path: string; oldPath: string };

export interface VaultPort {
  /** All Markdown notes, excluding `.lithos/` and dot-folders (`.obsidian`, `.trash`, ...). */
  listMarkdown(): Promise<VaultFileStat[]>;
  /** null when the file does not exist. */
  stat(path: string): Promise<VaultFileStat | null>;
  /** Raw bytes, so the engine can refuse binary files and over-large notes before decoding. */
  readBytes(path: string): Promise<Uint8Array>;
  /** Create or replace a note's whole content (creates parent folders). */
  write(path: string, content: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  delete(path: string): Promise<void>;
  /**
   * Atomically read-modify-write a note's frontmatter, as Obsidian's
   * FileManager.processFrontMatter: `fn` mutates the parsed mapping in place.
   */
  processFrontMatter(path: string, fn: (frontmatter: Record<string, unknown>) => void): Promise<void>;
  /**
   * Optional: apply `fn` to a note's current text and save the result in one step (Obsidian's Vault.process),
   * so an edit made between a read and a write is never overwritten. Returns the text `fn` saw and what it
   * returned (nothing is written when they are equal), or null when the note does not exist. Hosts without it
   * get read, compare and write, which drops the edit when the file changed in between.
   */
  processText?(path: string, fn: (text: string) => string): Promise<{ before: string; after: string } | null>;
  /** Subscribe to changes; returns an unsubscribe function. */
  watch(listener: (event: VaultEvent) => void): () => void;
  /** false when the vault folder itself is gone (unmounted drive, deleted folder). */
  isAvailable(): Promise<boolean>;
  /**
   * Whether the disk ignores case in names (macOS and Windows by default): then `diary.md` and `Diary.md`
   * are one file, and a path in another case names the note already there. Absent: case-sensitive.
   */
  readonly caseInsensitive?: boolean;
}

/**
 * Files under `<vault>/.lithos/` (stores, journal, registry). Names are relative to that folder.
 */
export interface BlobStore {
  /** null when absent. */
  read(name: string): Promise<Uint8Array | null>;
  /** Replace atomically: after a crash either the old or the new bytes are there, never a mix. */
  writeAtomic(name: string, data: Uint8Array): Promise<void>;
  /** Append and make durable before resolving: the journal's acknowledgement point. */
  append(name: string, data: Uint8Array): Promise<void>;
  remove(name: string): Promise<void>;
  list(prefix?: string): Promise<string[]>;
}

/**
 * A folder inside the vault that the person's sync tool carries (docs/devices.md): each device writes only
 * its own files there, so no two devices ever write one file. Paths are relative to the folder, `/`-separated.
 */
export interface SyncFolderPort {
  /** Every file under the folder, with its size in bytes. */
  list(): Promise<{ path: string; size: number }[]>;
  /** null when absent. */
  read(path: string): Promise<Uint8Array | null>;
  /** Appends and makes durable before resolving (creates the file and its folders when needed). */
  append(path: string, data: Uint8Array): Promise<void>;
  writeAtomic(path: string, data: Uint8Array): Promise<void>;
  remove(path: string): Promise<void>;
}

/** An embedding space: vectors from different spaces are never compared with each other. */
export interface Embedder {
  /** Stored with every vector, e.g. `hash-ngram-v2-384` or `minilm-l6-v2`. */
  readonly spaceId: string;
  readonly dimensions: number;
  /** One L2-normalised vector per text, same order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/**
 * Where this device keeps its own record for this vault, never inside the vault: a synced file would give
 * two devices one identity. The plugin uses Obsidian's per-device local storage, headless the user's config
 * folder; stores/device-identity.ts gives the record its meaning (docs/ledger.md#stable-ids).
 */
export interface DeviceIdentityStore {
  /** The text last written, or null when this device has none yet. */
  read(): Promise<string | null>;
  write(text: string): Promise<void>;
}

export interface Clock {
  /** ms since epoch */
  now(): number;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export const systemClock: Clock = { now: () => Date.now() };

export const systemTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
