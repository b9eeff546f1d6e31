import type { DataAdapter, EventRef, FileManager, TAbstractFile, TFile, Vault } from 'obsidian';
import type { VaultEvent, VaultFileStat, VaultPort } from '../shared/ports';
import { LithosError } from '../shared/errors';
import { folderOf, isHiddenPath, isMarkdownPath, normalizeVaultPath } from '../shared/model/paths';

/**
 * The parts of Obsidian's App this adapter uses. Typed with Obsidian's own declarations but only
 * imported as types, so tests can hand in a small fake instead of a running Obsidian.
 */
export interface ObsidianVaultHost {
  vault: Pick<Vault, 'getMarkdownFiles' | 'getAbstractFileByPath' | 'readBinary' | 'create' | 'modify' | 'process' | 'createFolder' | 'trash' | 'on' | 'offref'> & {
    adapter: Pick<DataAdapter, 'stat' | 'readBinary' | 'write' | 'list'>;
  };
  // trashFile is Obsidian 1.6.6+ (minAppVersion is 1.5.0).
  fileManager: Pick<FileManager, 'renameFile' | 'processFrontMatter'> & Partial<Pick<FileManager, 'trashFile'>>;
}

/**
 * Obsidian's Plugin.registerEvent: refs handed to it are detached when the plugin unloads,
 * even if the engine never calls the unsubscribe function.
 */
export type RegisterEvent = (ref: EventRef) => void;

/** TFile without importing the class at run time: folders have `children`, files have `stat` and `extension`. */
export function isFile(f: TAbstractFile | null): f is TFile {
  return f !== null && 'extension' in f && 'stat' in f;
}

/** A file the engine treats as a note: Markdown outside dot-folders. */
function isNotePath(path: string): boolean {
  return isMarkdownPath(path) && !isHiddenPath(path);
}

/**
 * Translates an Obsidian vault event into the port's vocabulary. Folders are ignored (Obsidian also
 * emits an event for each file inside a renamed or deleted folder); a rename that moves a file
 * into or out of "note-ness" (extension change, into a dot-folder) becomes a create or a delete.
 */
export function toVaultEvent(kind: 'create' | 'modify' | 'delete', file: TAbstractFile): VaultEvent | null;
export function toVaultEvent(kind: 'rename', file: TAbstractFile, oldPath: string): VaultEvent | null;
export function toVaultEvent(kind: VaultEvent['kind'], file: TAbstractFile, oldPath?: string): VaultEvent | null {
  if (!isFile(file)) return null;
  const isNote = isNotePath(file.path);
  if (kind !== 'rename') return isNote ? { kind, path: file.path } : null;
  const wasNote = oldPath !== undefined && isNotePath(oldPath);
  if (isNote && wasNote) return { kind: 'rename', path: file.path, oldPath: oldPath };
  if (isNote) return { kind: 'create', path: file.path };
  if (wasNote) return { kind: 'delete', path: oldPath };
  return null;
}

/** VaultPort over Obsidian's Vault and FileManager, so edits go through Obsidian (undo, link updates, sync). */
export class ObsidianVault implements VaultPort {
  /**
   * @param onFolderDeleted called when a watched folder is deleted. Obsidian reports a folder rename
   * file by file, but whether a folder delete also reports each file is not documented, so the
   * plugin rescans (cheap: unchanged notes are skipped on mtime) rather than risk missing deletions.
   */
  constructor(
    private readonly app: ObsidianVaultHost,
    private readonly registerEvent: RegisterEvent,
    private readonly onFolderDeleted: (path: string) => void = () => undefined,
    /** macOS, Windows and iOS disks ignore case by default (VaultPort.caseInsensitive). */
    readonly caseInsensitive = false,
  ) {}

  async listMarkdown(): Promise<VaultFileStat[]> {
    return this.app.vault
      .getMarkdownFiles()
      .filter((f) => isNotePath(f.path))
      .map((f) => ({ path: f.path, mtime: f.stat.mtime, size: f.stat.size }));
  }

  async stat(path: string): Promise<VaultFileStat | null> {
    const p = normalizeVaultPath(path);
    const file = this.app.vault.getAbstractFileByPath(p);
    if (isFile(file)) return { path: p, mtime: file.stat.mtime, size: file.stat.size };
    if (file) return null; // a folder
    // Not (yet) in Obsidian's cache, e.g. just written by the bridge: ask the disk.
    const s = await this.app.vault.adapter.stat(p);
    return s && s.type === 'file' ? { path: p, mtime: s.mtime, size: s.size } : null;
  }

  async readBytes(path: string): Promise<Uint8Array> {
    const p = normalizeVaultPath(path);
    const file = this.app.vault.getAbstractFileByPath(p);
    if (isFile(file)) return new Uint8Array(await this.app.vault.readBinary(file));
    if (!file && (await this.app.vault.adapter.stat(p))?.type === 'file') {
      return new Uint8Array(await this.app.vault.adapter.readBinary(p));
    }
    throw new LithosError('not_found', `No note at "${path}".`, { path });
  }

  async write(path: string, content: string): Promise<void> {
    const p = normalizeVaultPath(path);
    const existing = this.app.vault.getAbstractFileByPath(p);
    if (isFile(existing)) {
      await this.app.vault.modify(existing, content);
      return;
    }
    if (existing) throw new LithosError('conflict', `"${path}" is a folder.`, { path });
    if ((await this.app.vault.adapter.stat(p))?.type === 'file') {
      // On disk but not yet in Obsidian's cache (just written by the bridge): Vault.create would refuse.
      await this.app.vault.adapter.write(p, content);
      return;
    }
    await this.ensureFolder(folderOf(p));
    await this.app.vault.create(p, content);
  }

  /** Through FileManager.renameFile so links to the note are updated per the user's settings. */
  async rename(from: string, to: string): Promise<void> {
    const a = normalizeVaultPath(from);
    const b = normalizeVaultPath(to);
    const file = this.requireFile(a, from);
    if (this.app.vault.getAbstractFileByPath(b)) {
      throw new LithosError('conflict', `A note already exists at "${to}".`, { path: to });
    }
    await this.ensureFolder(folderOf(b));
    await this.app.fileManager.renameFile(file, b);
  }

  /** Trashes per the user's preference (system trash or .trash/), never a hard delete of a user's note. */
  async delete(path: string): Promise<void> {
    const file = this.requireFile(normalizeVaultPath(path), path);
    // Before 1.6.6 there is no FileManager.trashFile; the system trash is the recoverable default.
    if (this.app.fileManager.trashFile) await this.app.fileManager.trashFile(file);
    else await this.app.vault.trash(file, true);
  }

  /** Vault.process: Obsidian applies `fn` to the file's latest content and saves it in one step. */
  async processText(path: string, fn: (text: string) => string): Promise<{ before: string; after: string } | null> {
    const p = normalizeVaultPath(path);
    const file = this.app.vault.getAbstractFileByPath(p);
    if (!isFile(file)) {
      if (file || (await this.app.vault.adapter.stat(p))?.type !== 'file') return null;
      // On disk but not yet in Obsidian's cache (just written by the bridge): no Vault.process for it yet.
      const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await this.app.vault.adapter.readBinary(p)); // a BOM kept (text-edit.ts)
      const after = fn(before);
      if (after !== before) await this.app.vault.adapter.write(p, after);
      return { before, after };
    }
    let seen: { before: string; after: string } | null = null;
    await this.app.vault.process(file, (data) => {
      const after = fn(data);
      seen = { before: data, after };
      return after;
    });
    return seen;
  }

  async processFrontMatter(path: string, fn: (frontmatter: Record<string, unknown>) => void): Promise<void> {
    const file = this.requireFile(normalizeVaultPath(path), path);
    await this.app.fileManager.processFrontMatter(file, (fm: Record<string, unknown>) => fn(fm));
  }

  watch(listener: (event: VaultEvent) => void): () => void {
    const forward = (e: VaultEvent | null): void => {
      if (e) listener(e);
    };
    const v = this.app.vault;
    const refs = [
      v.on('create', (f) => forward(toVaultEvent('create', f))),
      v.on('modify', (f) => forward(toVaultEvent('modify', f))),
      v.on('delete', (f) => {
        if (isFile(f)) forward(toVaultEvent('delete', f));
        else if (!isHiddenPath(f.path)) this.onFolderDeleted(f.path);
      }),
      v.on('rename', (f, oldPath) => forward(toVaultEvent('rename', f, oldPath))),
    ];
    for (const ref of refs) this.registerEvent(ref);
    return () => {
      for (const ref of refs) v.offref(ref);
    };
  }

  /** Listing the vault root only fails when the folder itself is gone (unmounted drive, deleted). */
  async isAvailable(): Promise<boolean> {
    try {
      await this.app.vault.adapter.list('/');
      return true;
    } catch {
      return false;
    }
  }

  private requireFile(p: string, original: string): TFile {
    const file = this.app.vault.getAbstractFileByPath(p);
    if (!isFile(file)) throw new LithosError('not_found', `No note at "${original}".`, { path: original });
    return file;
  }

  /** Creates each missing ancestor; Vault.createFolder refuses to create a folder that exists. */
  private async ensureFolder(folder: string): Promise<void> {
    if (folder === '') return;
    const existing = this.app.vault.getAbstractFileByPath(folder);
    if (existing) {
      if (isFile(existing)) throw new LithosError('conflict', `"${folder}" is a file, not a folder.`, { path: folder });
      return;
    }
    await this.ensureFolder(folderOf(folder));
    await this.app.vault.createFolder(folder);
  }
}
