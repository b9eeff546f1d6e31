import { isMap, parseDocument, stringify } from 'yaml';
import type { DataWriteOptions, EventRef, ListedFiles, Stat, TAbstractFile, TFile, TFolder } from 'obsidian';
import type { ObsidianVaultHost } from '../../plugin/obsidian-vault';
import type { BlobAdapter } from '../../plugin/obsidian-blob-store';

/**
 * A hand-written stand-in for the parts of Obsidian's App the adapters use (Obsidian itself cannot
 * run under jest). Behaviour follows Obsidian where it matters to the adapters:
 * - one "disk" (FakeAdapter) shared by the vault and the adapter; the vault's file cache only knows
 *   what went through the vault API, or what `vault.sync()` picked up (Obsidian's file watcher);
 * - dot-folders are invisible to the vault API;
 * - DataAdapter.rename refuses to overwrite ("Destination file already exists!") unless
 *   `renameOverwrites` is set;
 * - `crashAfter(n)` makes the n-th next mutating call die half-way (a partial write, or nothing)
 *   and every later call fail, as a process killed mid-write would.
 */

const enc = new TextEncoder();
const dec = new TextDecoder();

export class CrashError extends Error {}

interface DiskFile {
  bytes: Uint8Array;
  ctime: number;
  mtime: number;
}

export class FakeAdapter implements BlobAdapter {
  readonly files = new Map<string, DiskFile>();
  readonly folders = new Set<string>();
  renameOverwrites = false;
  /** Set to undefined to model Obsidian < 1.12.3. */
  appendBinary?: BlobAdapter['appendBinary'] = (p, data) => this.doAppend(p, data);
  /** Every call, for assertions on how the adapter was driven. */
  readonly calls: string[] = [];
  available = true;
  /** FileSystemAdapter's (desktop): set with `onDisk(dir)`; absent as on mobile. */
  getBasePath?: () => string;
  private tick = 1_700_000_000_000;
  private crashCountdown: number | null = null;
  private crashed = false;

  /** Makes this a desktop FileSystemAdapter whose vault folder is `dir` (the bridge host writes there). */
  onDisk(dir: string): void {
    this.getBasePath = () => dir;
  }

  /** Mutations 1..n-1 succeed; the n-th is cut short; everything after fails. */
  crashAfter(n: number): void {
    this.crashCountdown = n;
  }

  get hasCrashed(): boolean {
    return this.crashed;
  }

  /** A restart: the disk is kept, the process is alive again. */
  restart(): void {
    this.crashCountdown = null;
    this.crashed = false;
  }

  text(path: string): string | undefined {
    const f = this.files.get(path);
    return f ? dec.decode(f.bytes) : undefined;
  }

  put(path: string, content: string | Uint8Array): void {
    this.addParents(path);
    const now = this.nextTime();
    const prev = this.files.get(path);
    this.files.set(path, { bytes: typeof content === 'string' ? enc.encode(content) : content.slice(), ctime: prev?.ctime ?? now, mtime: now });
  }

  async exists(p: string): Promise<boolean> {
    this.observe('exists', p);
    return this.files.has(p) || this.folders.has(p);
  }

  async stat(p: string): Promise<Stat | null> {
    this.observe('stat', p);
    const f = this.files.get(p);
    if (f) return { type: 'file', ctime: f.ctime, mtime: f.mtime, size: f.bytes.byteLength };
    return this.folders.has(p) ? { type: 'folder', ctime: 0, mtime: 0, size: 0 } : null;
  }

  async list(p: string): Promise<ListedFiles> {
    this.observe('list', p);
    if (!this.available) throw new Error('ENOENT: vault folder is gone');
    const root = p === '/' || p === '' ? '' : p;
    if (root && !this.folders.has(root)) throw new Error(`ENOENT: no such folder ${p}`);
    const child = (q: string): boolean => (root ? q.startsWith(root + '/') && !q.slice(root.length + 1).includes('/') : !q.includes('/'));
    return { files: [...this.files.keys()].filter(child).sort(), folders: [...this.folders].filter(child).sort() };
  }

  private observe(op: string, p: string): void {
    this.calls.push(`${op} ${p}`);
    if (this.crashed) throw new CrashError('process is dead');
  }

  async readBinary(p: string): Promise<ArrayBuffer> {
    this.observe('readBinary', p);
    const f = this.files.get(p);
    if (!f) throw new Error(`ENOENT: ${p}`);
    return f.bytes.slice().buffer;
  }

  async write(p: string, data: string, _options?: DataWriteOptions): Promise<void> {
    this.mutate('write', p, () => this.put(p, data.slice(0, Math.floor(data.length / 2))));
    this.put(p, data);
  }

  async writeBinary(p: string, data: ArrayBuffer, _options?: DataWriteOptions): Promise<void> {
    const bytes = new Uint8Array(data);
    this.mutate('writeBinary', p, () => this.put(p, bytes.slice(0, Math.floor(bytes.byteLength / 2))));
    this.put(p, bytes);
  }

  private async doAppend(p: string, data: ArrayBuffer): Promise<void> {
    const add = new Uint8Array(data);
    const prev = this.files.get(p)?.bytes ?? new Uint8Array(0);
    const join = (n: number): Uint8Array => {
      const out = new Uint8Array(prev.byteLength + n);
      out.set(prev, 0);
      out.set(add.subarray(0, n), prev.byteLength);
      return out;
    };
    this.mutate('appendBinary', p, () => this.put(p, join(Math.floor(add.byteLength / 2))));
    this.put(p, join(add.byteLength));
  }

  async remove(p: string): Promise<void> {
    this.mutate('remove', p);
    if (!this.files.delete(p)) throw new Error(`ENOENT: ${p}`);
  }

  async rename(from: string, to: string): Promise<void> {
    this.mutate('rename', `${from} -> ${to}`);
    const f = this.files.get(from);
    if (!f) throw new Error(`ENOENT: ${from}`);
    if (this.files.has(to) && !this.renameOverwrites) throw new Error('Destination file already exists!');
    this.addParents(to);
    this.files.delete(from);
    this.files.set(to, f);
  }

  async mkdir(p: string): Promise<void> {
    this.mutate('mkdir', p);
    this.addParents(p + '/x');
  }

  /** Runs `partial` (what a crash leaves behind) and throws when this call is the crash point. */
  private mutate(op: string, p: string, partial?: () => void): void {
    this.calls.push(`${op} ${p}`);
    if (this.crashed) throw new CrashError('process is dead');
    if (this.crashCountdown !== null && --this.crashCountdown === 0) {
      this.crashed = true;
      partial?.();
      throw new CrashError(`crashed during ${op} ${p}`);
    }
  }

  private addParents(path: string): void {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) this.folders.add(parts.slice(0, i).join('/'));
  }

  nextTime(): number {
    this.tick += 1000;
    return this.tick;
  }
}

type Listener = (file: TAbstractFile, oldPath: string) => unknown;

/** Vault over the FakeAdapter's disk, with Obsidian's file cache and events. */
export class FakeVault {
  readonly adapter: FakeAdapter;
  private readonly cache = new Map<string, TFile | TFolder>();
  private readonly listeners = new Map<EventRef, { name: string; fn: Listener }>();
  readonly trashed: string[] = [];

  constructor(adapter: FakeAdapter) {
    this.adapter = adapter;
  }

  /** Obsidian's watcher noticing files written behind its back (dot-folders stay invisible). */
  sync(): void {
    for (const p of this.adapter.folders) if (!hidden(p)) this.cacheFolder(p);
    for (const [p, f] of this.adapter.files) if (!hidden(p)) this.cacheFile(p, f);
  }

  emit(name: string, file: TAbstractFile, oldPath = ''): void {
    for (const l of this.listeners.values()) if (l.name === name) l.fn(file, oldPath);
  }

  listenerCount(): number {
    return this.listeners.size;
  }

  getName(): string {
    return 'fixture-vault';
  }

  getMarkdownFiles(): TFile[] {
    return [...this.cache.values()].filter((f): f is TFile => 'extension' in f && f.extension === 'md');
  }

  getAbstractFileByPath(path: string): TAbstractFile | null {
    return this.cache.get(path) ?? null;
  }

  async readBinary(file: TFile): Promise<ArrayBuffer> {
    return this.adapter.readBinary(file.path);
  }

  async create(path: string, data: string): Promise<TFile> {
    if (this.adapter.files.has(path)) throw new Error('File already exists.');
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    if (parent && !this.cache.has(parent)) throw new Error(`Parent folder "${parent}" does not exist.`);
    this.adapter.put(path, data);
    const file = this.cacheFile(path, this.adapter.files.get(path) as DiskFile);
    this.emit('create', file);
    return file;
  }

  /** Vault.process: read, apply and save with nothing in between; unchanged text is not written (no event). */
  async process(file: TFile, fn: (data: string) => string): Promise<string> {
    const data = dec.decode(this.adapter.files.get(file.path)?.bytes ?? new Uint8Array(0));
    const next = fn(data);
    if (next !== data) await this.modify(file, next);
    return next;
  }

  async modify(file: TFile, data: string): Promise<void> {
    this.adapter.put(file.path, data);
    this.refreshStat(file);
    this.emit('modify', file);
  }

  async createFolder(path: string): Promise<TFolder> {
    if (this.cache.has(path)) throw new Error('Folder already exists.');
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    if (parent && !this.cache.has(parent)) throw new Error(`Parent folder "${parent}" does not exist.`);
    this.adapter.folders.add(path);
    const folder = this.cacheFolder(path);
    this.emit('create', folder);
    return folder;
  }

  /** Trashing a folder removes everything under it but emits 'delete' for the folder only (the pessimistic reading of Obsidian). */
  async trash(file: TAbstractFile, _system: boolean): Promise<void> {
    this.trashed.push(file.path);
    const under = (p: string): boolean => p === file.path || p.startsWith(file.path + '/');
    for (const p of [...this.adapter.files.keys()]) if (under(p)) this.adapter.files.delete(p);
    for (const p of [...this.adapter.folders]) if (under(p)) this.adapter.folders.delete(p);
    for (const p of [...this.cache.keys()]) if (under(p)) this.cache.delete(p);
    this.emit('delete', file);
  }

  on(name: string, fn: Listener): EventRef {
    const ref = {} as EventRef;
    this.listeners.set(ref, { name, fn });
    return ref;
  }

  offref(ref: EventRef): void {
    this.listeners.delete(ref);
  }

  /** Moves a file in cache and on disk, as Vault.rename does, and emits 'rename'. */
  async move(file: TAbstractFile, to: string): Promise<void> {
    const from = file.path;
    if (this.cache.has(to)) throw new Error('Destination file already exists!');
    const disk = this.adapter.files.get(from);
    if (disk) {
      this.adapter.files.delete(from);
      this.adapter.files.set(to, disk);
    }
    this.cache.delete(from);
    Object.assign(file, { path: to, name: to.slice(to.lastIndexOf('/') + 1) });
    if ('extension' in file) Object.assign(file, { extension: extOf(to), basename: baseOf(to) });
    this.cache.set(to, file as TFile);
    this.emit('rename', file, from);
  }

  refreshStat(file: TFile): void {
    const f = this.adapter.files.get(file.path);
    if (f) file.stat = { ctime: f.ctime, mtime: f.mtime, size: f.bytes.byteLength };
  }

  private cacheFile(path: string, disk: DiskFile): TFile {
    const existing = this.cache.get(path);
    if (existing && 'stat' in existing) return existing;
    const file = {
      path,
      name: path.slice(path.lastIndexOf('/') + 1),
      basename: baseOf(path),
      extension: extOf(path),
      stat: { ctime: disk.ctime, mtime: disk.mtime, size: disk.bytes.byteLength },
      parent: null,
      vault: this,
    } as unknown as TFile;
    this.cache.set(path, file);
    return file;
  }

  private cacheFolder(path: string): TFolder {
    const existing = this.cache.get(path);
    if (existing && 'children' in existing) return existing;
    const folder = { path, name: path.slice(path.lastIndexOf('/') + 1), children: [], parent: null, vault: this } as unknown as TFolder;
    this.cache.set(path, folder);
    return folder;
  }
}

/** FileManager: renames, frontmatter edits and trashing, all through the vault so events fire. */
export class FakeFileManager {
  /** Set to undefined to model Obsidian < 1.6.6. */
  trashFile?: (file: TAbstractFile) => Promise<void> = async (file) => {
    this.trashedViaFileManager.push(file.path);
    await this.vault.trash(file, false);
  };
  readonly trashedViaFileManager: string[] = [];

  constructor(private readonly vault: FakeVault) {}

  async renameFile(file: TAbstractFile, newPath: string): Promise<void> {
    await this.vault.move(file, newPath);
  }

  async processFrontMatter(file: TFile, fn: (frontmatter: Record<string, unknown>) => void): Promise<void> {
    const text = this.vault.adapter.text(file.path) ?? '';
    const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
    const doc = parseDocument(m ? m[1] : '');
    if (doc.errors.length) throw new Error(`YAMLParseError in ${file.path}`);
    const data = (isMap(doc.contents) ? doc.toJSON() : {}) as Record<string, unknown>;
    fn(data);
    const body = m ? text.slice(m[0].length) : text;
    await this.vault.modify(file, `---\n${stringify(data)}---\n${body}`);
  }
}

/** Workspace: layout-ready callbacks run when the test says the layout is ready; opened links are recorded. */
export class FakeWorkspace {
  private readyCallbacks: (() => unknown)[] = [];
  layoutReady = false;
  readonly opened: string[] = [];

  onLayoutReady(callback: () => unknown): void {
    if (this.layoutReady) callback();
    else this.readyCallbacks.push(callback);
  }

  finishLayout(): void {
    this.layoutReady = true;
    for (const cb of this.readyCallbacks.splice(0)) cb();
  }

  async openLinkText(linktext: string, _sourcePath: string, _newLeaf?: boolean): Promise<void> {
    this.opened.push(linktext);
  }
}

/**
 * MetadataCache's start-up signal: `resolved` (set at run time, undeclared in Obsidian's typings) and the
 * 'resolved' event. Starts unresolved; the test calls `resolve()` when Obsidian would have finished.
 */
export class FakeMetadataCache {
  resolved = false;
  private readonly listeners = new Map<EventRef, () => unknown>();

  on(_name: 'resolved', fn: () => unknown): EventRef {
    const ref = {} as EventRef;
    this.listeners.set(ref, fn);
    return ref;
  }
  offref(ref: EventRef): void {
    this.listeners.delete(ref);
  }
  listenerCount(): number {
    return this.listeners.size;
  }
  resolve(): void {
    this.resolved = true;
    for (const fn of [...this.listeners.values()]) fn();
  }
}

/** The App subset: `app.vault`, `app.vault.adapter`, `app.fileManager`, `app.workspace`, `app.metadataCache`. */
export class FakeApp {
  readonly adapter = new FakeAdapter();
  readonly vault = new FakeVault(this.adapter);
  readonly fileManager = new FakeFileManager(this.vault);
  readonly workspace = new FakeWorkspace();
  readonly metadataCache = new FakeMetadataCache();
  /** App.loadLocalStorage / saveLocalStorage: this device's storage, never in the vault (a device's identity lives here). */
  readonly localStorage = new Map<string, unknown>();

  loadLocalStorage(key: string): unknown {
    return this.localStorage.get(key) ?? null;
  }

  saveLocalStorage(key: string, data: unknown): void {
    if (data === null || data === undefined) this.localStorage.delete(key);
    else this.localStorage.set(key, data);
  }

  /** A vault with these notes already on disk and known to Obsidian. */
  static with(files: Record<string, string>): FakeApp {
    const app = new FakeApp();
    for (const [p, c] of Object.entries(files)) app.adapter.put(p, c);
    app.vault.sync();
    return app;
  }

  /** The adapters' view of this fake, checked against Obsidian's declarations by the compiler. */
  host(): ObsidianVaultHost {
    return { vault: this.vault, fileManager: this.fileManager };
  }
}

function hidden(path: string): boolean {
  return path.split('/').some((s) => s.startsWith('.'));
}

function extOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const i = name.lastIndexOf('.');
  return i <= 0 ? '' : name.slice(i + 1);
}

function baseOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const i = name.lastIndexOf('.');
  return i <= 0 ? name : name.slice(0, i);
}
