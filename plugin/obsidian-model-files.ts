import type { DataAdapter } from 'obsidian';
import type { ModelFilePort } from '../shared/index/embedders/model-download';
import { folderOf } from '../shared/model/paths';

export type ModelFilesAdapter = Pick<DataAdapter, 'stat' | 'exists' | 'readBinary' | 'writeBinary' | 'remove' | 'rename' | 'mkdir'> &
  // appendBinary is Obsidian 1.12.3+; older apps rewrite the part file with the new bytes added.
  Partial<Pick<DataAdapter, 'appendBinary'>>;

/** The model downloader's files through Obsidian's DataAdapter (vault-relative paths, dot-folders included). */
export class ObsidianModelFiles implements ModelFilePort {
  constructor(private readonly adapter: ModelFilesAdapter) {}

  async size(path: string): Promise<number | null> {
    const stat = await this.adapter.stat(path);
    return stat?.type === 'file' ? stat.size : null;
  }

  async append(path: string, bytes: Uint8Array): Promise<void> {
    const buffer = bytes.slice().buffer;
    if (!(await this.adapter.exists(path))) {
      await this.ensureFolder(folderOf(path));
      await this.adapter.writeBinary(path, buffer);
    } else if (this.adapter.appendBinary) {
      await this.adapter.appendBinary(path, buffer);
    } else {
      const prev = new Uint8Array(await this.adapter.readBinary(path));
      const next = new Uint8Array(prev.byteLength + bytes.byteLength);
      next.set(prev, 0);
      next.set(bytes, prev.byteLength);
      await this.adapter.writeBinary(path, next.buffer);
    }
  }

  /** DataAdapter.rename is not documented to overwrite: an existing target is removed first. */
  async replace(from: string, to: string): Promise<void> {
    if (await this.adapter.exists(to)) await this.adapter.remove(to);
    await this.adapter.rename(from, to);
  }

  async remove(path: string): Promise<void> {
    await this.adapter.remove(path);
  }

  /** WebCrypto (desktop and mobile): the file is read whole, as the model loader reads it anyway. */
  async sha256(path: string): Promise<string> {
    const digest = await crypto.subtle.digest('SHA-256', await this.adapter.readBinary(path));
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }

  private async ensureFolder(folder: string): Promise<void> {
    if (folder === '' || (await this.adapter.exists(folder))) return;
    await this.ensureFolder(folderOf(folder));
    await this.adapter.mkdir(folder);
  }
}
