import type { DataAdapter } from 'obsidian';
import type { BlobStore } from '../shared/ports';
import { folderOf, normalizeVaultPath } from '../shared/model/paths';

/** The DataAdapter calls this store makes (typed from Obsidian's declarations, imported as types only). */
export type BlobAdapter = Pick<DataAdapter, 'exists' | 'readBinary' | 'writeBinary' | 'remove' | 'rename' | 'list' | 'mkdir'> &
  // appendBinary is Obsidian 1.12.3+; older apps fall back to an atomic rewrite.
  Partial<Pick<DataAdapter, 'appendBinary'>>;

/** In-flight bytes of a write; never the current value of a blob. */
const TMP = '.tmp';
/** Complete new bytes waiting to replace the blob: the commit point of writeAtomic. */
const NEW = '.new';

/**
 * BlobStore under `<vault>/.lithos/` through Obsidian's DataAdapter: the vault API cannot see
 * dot-folders, and `.lithos/` deliberately sits at the vault root rather than in the config
 * folder, so the bridge finds the same files whatever the user's configDir is.
 *
 * Atomic replace: DataAdapter.rename is not documented to overwrite (Obsidian users report
 * "Destination file already exists!" from renames onto an existing file), so a write goes `name.tmp` → rename to `name.new` (now complete) →
 * rename over `name`, removing `name` first only when that rename fails because it exists.
 * A crash leaves either the old `name` (with a garbage `.tmp`), or a complete `name.new` that
 * every read and list promotes first — never a partial blob.
 */
export class ObsidianBlobStore implements BlobStore {
  constructor(
    private readonly adapter: BlobAdapter,
    private readonly root = '.lithos',
  ) {}

  async read(name: string): Promise<Uint8Array | null> {
    const path = this.pathOf(name);
    await this.recover(path);
    if (!(await this.adapter.exists(path))) return null;
    return new Uint8Array(await this.adapter.readBinary(path));
  }

  async writeAtomic(name: string, data: Uint8Array): Promise<void> {
    const path = this.pathOf(name);
    await this.ensureFolder(folderOf(path));
    await this.adapter.writeBinary(path + TMP, toArrayBuffer(data));
    // A `.new` left by an earlier crash is older than these bytes: drop it so the commit rename can land.
    if (await this.adapter.exists(path + NEW)) await this.adapter.remove(path + NEW);
    await this.adapter.rename(path + TMP, path + NEW);
    await this.replace(path + NEW, path);
  }

  /**
   * Resolves once the adapter has written the bytes. DataAdapter offers no fsync, so "durable"
   * here means handed to the OS, as with every Obsidian write.
   */
  async append(name: string, data: Uint8Array): Promise<void> {
    const path = this.pathOf(name);
    await this.recover(path);
    if (!(await this.adapter.exists(path))) {
      await this.ensureFolder(folderOf(path));
      await this.adapter.writeBinary(path, toArrayBuffer(data));
    } else if (this.adapter.appendBinary) {
      await this.adapter.appendBinary(path, toArrayBuffer(data));
    } else {
      const prev = new Uint8Array(await this.adapter.readBinary(path));
      const next = new Uint8Array(prev.byteLength + data.byteLength);
      next.set(prev, 0);
      next.set(data, prev.byteLength);
      await this.writeAtomic(name, next);
    }
  }

  async remove(name: string): Promise<void> {
    const path = this.pathOf(name);
    for (const p of [path + NEW, path, path + TMP]) {
      if (await this.adapter.exists(p)) await this.adapter.remove(p);
    }
  }

  async list(prefix = ''): Promise<string[]> {
    if (!(await this.adapter.exists(this.root))) return [];
    const names = new Set<string>();
    for (const file of await this.walk(this.root)) {
      const rel = file.slice(this.root.length + 1);
      if (rel.endsWith(TMP)) continue;
      // A committed-but-unpromoted write is the blob's current value.
      names.add(rel.endsWith(NEW) ? rel.slice(0, -NEW.length) : rel);
    }
    return [...names].filter((n) => n.startsWith(prefix)).sort();
  }

  /** Names are relative to the root and may not climb out of it. */
  private pathOf(name: string): string {
    return `${this.root}/${normalizeVaultPath(name)}`;
  }

  /** Finishes a writeAtomic that crashed after its commit point. */
  private async recover(path: string): Promise<void> {
    if (await this.adapter.exists(path + NEW)) await this.replace(path + NEW, path);
  }

  private async replace(from: string, to: string): Promise<void> {
    try {
      await this.adapter.rename(from, to);
      return;
    } catch (err) {
      if (!(await this.adapter.exists(to))) throw err;
    }
    await this.adapter.remove(to);
    await this.adapter.rename(from, to);
  }

  private async ensureFolder(folder: string): Promise<void> {
    if (folder === '' || (await this.adapter.exists(folder))) return;
    await this.ensureFolder(folderOf(folder));
    await this.adapter.mkdir(folder);
  }

  /** All files below `folder`, as vault-relative paths. DataAdapter.list is one level deep. */
  private async walk(folder: string): Promise<string[]> {
    const listed = await this.adapter.list(folder);
    const out = listed.files.map((f) => `${folder}/${lastSegment(f)}`);
    for (const sub of listed.folders) out.push(...(await this.walk(`${folder}/${lastSegment(sub)}`)));
    return out;
  }
}

/** Adapters differ on whether list() returns full paths or names; the last segment is the same in both. */
function lastSegment(p: string): string {
  const trimmed = p.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** DataAdapter takes an ArrayBuffer: pass the view's own buffer only when it is exactly the view. */
function toArrayBuffer(data: Uint8Array): ArrayBuffer {
  if (data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength) {
    return data.buffer;
  }
  return data.slice().buffer;
}
