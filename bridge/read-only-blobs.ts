import type { BlobStore } from '../shared/ports';

/**
 * Reads through to the real `.lithos/` folder but keeps every write in memory: lets read-only commands
 * (search, stats, doctor) run while another process holds the writer lock, without touching its stores.
 */
export class ReadOnlyBlobStore implements BlobStore {
  private readonly overlay = new Map<string, Uint8Array | null>();

  constructor(private readonly base: BlobStore) {}

  async read(name: string): Promise<Uint8Array | null> {
    if (this.overlay.has(name)) return this.overlay.get(name) ?? null;
    return this.base.read(name);
  }

  async writeAtomic(name: string, data: Uint8Array): Promise<void> {
    this.overlay.set(name, data.slice());
  }

  async append(name: string, data: Uint8Array): Promise<void> {
    const prev = (await this.read(name)) ?? new Uint8Array(0);
    const next = new Uint8Array(prev.byteLength + data.byteLength);
    next.set(prev, 0);
    next.set(data, prev.byteLength);
    this.overlay.set(name, next);
  }

  async remove(name: string): Promise<void> {
    this.overlay.set(name, null);
  }

  async list(prefix = ''): Promise<string[]> {
    const names = new Set(await this.base.list(prefix));
    for (const [k, v] of this.overlay) {
      if (!k.startsWith(prefix)) continue;
      if (v === null) names.delete(k);
      else names.add(k);
    }
    return [...names].sort();
  }
}
