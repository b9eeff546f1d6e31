import type { SyncFolderPort } from '../../shared/ports';

/** In-memory twin of a synced folder: one per device; tests copy files between them as a sync tool would. */
export class MemorySyncFolder implements SyncFolderPort {
  readonly files = new Map<string, Uint8Array>();

  async list(): Promise<{ path: string; size: number }[]> {
    return [...this.files].map(([path, b]) => ({ path, size: b.byteLength })).sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  async read(path: string): Promise<Uint8Array | null> {
    return this.files.get(path)?.slice() ?? null;
  }

  async append(path: string, data: Uint8Array): Promise<void> {
    const prev = this.files.get(path) ?? new Uint8Array(0);
    const next = new Uint8Array(prev.byteLength + data.byteLength);
    next.set(prev, 0);
    next.set(data, prev.byteLength);
    this.files.set(path, next);
  }

  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    this.files.set(path, data.slice());
  }

  async remove(path: string): Promise<void> {
    this.files.delete(path);
  }
}
