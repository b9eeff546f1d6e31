import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { SyncFolderPort } from '../shared/ports';
import { NodeBlobStore } from './node-blob-store';

/**
 * The devices folder inside the vault (docs/devices.md) on Node: the same durable appends and atomic writes
 * as `.lithos/` (NodeBlobStore), plus each file's size so a round reads only files that changed.
 */
export class NodeSyncFolder implements SyncFolderPort {
  private readonly files: NodeBlobStore;
  private made = false;

  constructor(
    private readonly vaultRoot: string,
    folder: string,
  ) {
    this.files = new NodeBlobStore(nodePath.join(vaultRoot, folder));
  }

  /** Makes the folder's parents (e.g. `Lithos/`) inside an existing vault; a missing vault stays an error. */
  private async ensure(): Promise<void> {
    if (this.made) return;
    await fsp.stat(this.vaultRoot); // ENOENT: the vault is gone, reported by the write that follows
    await fsp.mkdir(nodePath.dirname(this.files.dir), { recursive: true });
    this.made = true;
  }

  async list(): Promise<{ path: string; size: number }[]> {
    const out: { path: string; size: number }[] = [];
    for (const path of await this.files.list()) {
      const st = await fsp.stat(nodePath.join(this.files.dir, path)).catch(() => null);
      if (st?.isFile()) out.push({ path, size: st.size });
    }
    return out;
  }

  read(path: string): Promise<Uint8Array | null> {
    return this.files.read(path);
  }

  async append(path: string, data: Uint8Array): Promise<void> {
    await this.ensure().catch(() => undefined);
    return this.files.append(path, data);
  }

  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    await this.ensure().catch(() => undefined);
    return this.files.writeAtomic(path, data);
  }

  remove(path: string): Promise<void> {
    return this.files.remove(path);
  }
}
