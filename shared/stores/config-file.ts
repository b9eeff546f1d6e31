/**
 * A small JSON file under `.lithos/` that a person may edit by hand and the engine reloads while running
 * (policy.json, learning.json): validated on every read, written atomically, re-read at most every
 * RELOAD_MS by `refresh`. No file: `empty`, unless `absent` says the file should be there (it was deleted:
 * then its value and notice). A file that is not valid JSON or fails `parse`: `fallback`, with the reason
 * in `problem` (logged once per distinct text), and the file left as it is until it is fixed by hand or
 * replaced by `write`.
 */
import { LithosError } from '../errors';
import { silentLogger, type BlobStore, type Clock, type Logger } from '../ports';

/** How stale a hand edit may be before refresh() re-reads the file. */
export const RELOAD_MS = 5000;

export interface ConfigFileSpec<T> {
  /** Name under `.lithos/`. */
  file: string;
  /** Validates what JSON.parse gave; throws a LithosError naming every problem. */
  parse: (raw: unknown) => T;
  /** In force without a file. */
  empty: T;
  /**
   * In force while the file is damaged; a function gets what was in force before and the parsed JSON
   * (undefined when the text is not JSON), to keep what must not be lost (e.g. hidden folders).
   */
  fallback: T | ((previous: T, raw: unknown) => T);
  /** Appended to the problem: what applies until the file is fixed. */
  meanwhile: string;
  /**
   * Asked when there is no file: null when none is expected (`empty` applies), else what applies instead
   * and the notice to give (a file that was in force before and has been deleted must not open anything up).
   */
  absent?: (previous: T) => { value: T; problem: string } | null;
  /** Called with each valid value read from or written to the file (e.g. to keep a last-good copy). */
  onValid?: (value: T) => Promise<void>;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

export class ConfigFile<T> {
  private current: T;
  private loadedAt: number;
  private lastText: string | null = null;
  /** Why the file on disk is not in force (damaged, or missing where one was expected); null when it is. */
  problem: string | null = null;
  /** Whether the file is there but cannot be read as valid (saving over it would lose what it holds). */
  damaged = false;

  constructor(
    private readonly spec: ConfigFileSpec<T>,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.current = spec.empty;
    this.loadedAt = clock.now();
  }

  /** The file read once, as every store needs it before its first use. */
  static async open<T>(spec: ConfigFileSpec<T>, deps: { blobs: BlobStore; clock: Clock; logger?: Logger }): Promise<ConfigFile<T>> {
    const file = new ConfigFile(spec, deps.blobs, deps.clock, deps.logger ?? silentLogger);
    await file.reload();
    return file;
  }

  get value(): T {
    return this.current;
  }

  /** Writes `value` as pretty JSON (the caller has validated it) and puts it in force at once. */
  async write(value: T, json: unknown = value): Promise<void> {
    const text = JSON.stringify(json, null, 2) + '\n';
    await this.blobs.writeAtomic(this.spec.file, enc.encode(text));
    this.current = value;
    this.lastText = text;
    this.problem = null;
    this.damaged = false;
    this.loadedAt = this.clock.now();
    await this.spec.onValid?.(value);
  }

  /** Re-reads the file when the last read is older than RELOAD_MS (hand edits while running). */
  async refresh(): Promise<void> {
    if (this.clock.now() - this.loadedAt >= RELOAD_MS) await this.reload();
  }

  /** Re-reads the file now; unchanged text is not parsed again. */
  async reload(): Promise<void> {
    this.loadedAt = this.clock.now();
    const bytes = await this.blobs.read(this.spec.file);
    const text = bytes ? dec.decode(bytes) : null;
    if (text === this.lastText && this.lastText !== null) return;
    this.lastText = text;
    this.damaged = false;
    if (text === null) {
      const instead = this.spec.absent?.(this.current) ?? null;
      this.current = instead ? instead.value : this.spec.empty;
      if (instead && instead.problem !== this.problem) this.logger.warn(instead.problem);
      this.problem = instead ? instead.problem : null;
      return;
    }
    let raw: unknown;
    try {
      try {
        raw = JSON.parse(text);
      } catch (err) {
        throw new LithosError('invalid_argument', `.lithos/${this.spec.file} is not valid JSON (${(err as Error).message}).`);
      }
      this.current = this.spec.parse(raw);
      this.problem = null;
    } catch (err) {
      const f = this.spec.fallback;
      this.current = typeof f === 'function' ? (f as (previous: T, raw: unknown) => T)(this.current, raw) : f;
      this.problem = `${(err as Error).message} ${this.spec.meanwhile}`;
      this.damaged = true;
      this.logger.warn(this.problem);
      return;
    }
    await this.spec.onValid?.(this.current);
  }
}
