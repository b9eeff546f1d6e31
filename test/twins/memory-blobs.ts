import type { BlobStore } from '../../shared/ports';

/** In-memory twin of BlobStore. `crashAfterWrites` lets tests simulate a process dying mid-way. */
export class MemoryBlobStore implements BlobStore {
  readonly files = new Map<string, Uint8Array>();
  writes = 0;
  appends = 0;

  async read(name: string): Promise<Uint8Array | null> {
    const f = this.files.get(name);
    return f ? f.slice() : null;
  }

  async writeAtomic(name: string, data: Uint8Array): Promise<void> {
    this.writes++;
    this.files.set(name, data.slice());
  }

  async append(name: string, data: Uint8Array): Promise<void> {
    this.appends++;
    const prev = this.files.get(name) ?? new Uint8Array(0);
    const next = new Uint8Array(prev.byteLength + data.byteLength);
    next.set(prev, 0);
    next.set(data, prev.byteLength);
    this.files.set(name, next);
  }

  async remove(name: string): Promise<void> {
    this.files.delete(name);
  }

  async list(prefix = ''): Promise<string[]> {
    return [...this.files.keys()].filter((k) => k.startsWith(prefix)).sort();
  }

  /** Test helper: cut a stored file in half, as a crash during a non-atomic write would. */
  truncate(name: string, keepFraction = 0.5): void {
    const f = this.files.get(name);
    if (f) this.files.set(name, f.slice(0, Math.floor(f.byteLength * keepFraction)));
  }

  /** A copy sharing no state, as if the process restarted and re-read the disk. */
  clone(): MemoryBlobStore {
    const c = new MemoryBlobStore();
    for (const [k, v] of this.files) c.files.set(k, v.slice());
    return c;
  }
}
