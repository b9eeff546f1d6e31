import type { DataAdapter } from 'obsidian';
import type { SyncFolderPort } from '../shared/ports';
import { normalizeVaultPath } from '../shared/model/paths';
import { ObsidianBlobStore, type BlobAdapter } from './obsidian-blob-store';

/** The DataAdapter calls the devices folder needs: the blob store's, plus `stat` for each file's size. */
export type SyncAdapter = BlobAdapter & Pick<DataAdapter, 'stat'>;

/** The blob store's commit marker (obsidian-blob-store.ts): a complete write not yet renamed over its file. */
const NEW = '.new';

/**
 * The devices folder (learning.json `devices.folder`, docs/devices.md) through Obsidian's DataAdapter, so it
 * works on mobile too (no Node APIs). The same atomic writes and appends as `.lithos/` (ObsidianBlobStore,
 * rooted at the devices folder; it makes the parent folders), plus each file's size so a round reads only
 * files that grew.
 */
export class ObsidianSyncFolder implements SyncFolderPort {
  private readonly files: ObsidianBlobStore;
  private readonly root: string;

  /** `folder`: vault-relative, as learning.json names it (`Lithos/Devices`). */
  constructor(
    private readonly adapter: SyncAdapter,
    folder: string,
  ) {
    this.root = normalizeVaultPath(folder);
    this.files = new ObsidianBlobStore(adapter, this.root);
  }

  /** Every file below the folder with its size; a missing folder (nothing synced yet) is empty. */
  async list(): Promise<{ path: string; size: number }[]> {
    const out: { path: string; size: number }[] = [];
    for (const path of await this.files.list()) {
      // A committed write not yet promoted is the file's current value: its size is the one a reader sees.
      const full = `${this.root}/${path}`;
      const st = (await this.adapter.stat(full + NEW)) ?? (await this.adapter.stat(full));
      if (st?.type === 'file') out.push({ path, size: st.size });
    }
    return out;
  }

  read(path: string): Promise<Uint8Array | null> {
    return this.files.read(path);
  }

  append(path: string, data: Uint8Array): Promise<void> {
    return this.files.append(path, data);
  }

  writeAtomic(path: string, data: Uint8Array): Promise<void> {
    return this.files.writeAtomic(path, data);
  }

  remove(path: string): Promise<void> {
    return this.files.remove(path);
  }
}
