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

  /** Per appended file, the view last stored in `files` (a window on a larger buffer with room to grow). */
  private readonly grown = new Map<string, Uint8Array>();

  async append(name: string, data: Uint8Array): Promise<void> {
    this.appends++;
    const prev = this.files.get(name) ?? new Uint8Array(0);
    const size = prev.byteLength + data.byteLength;
    // Amortised growth, as a file system's append is: copying the whole file per append made a journal of a
    // few thousand entries cost seconds. Only while `files` still holds our own view (no test replaced it).
    const own = this.grown.get(name) === prev ? prev : null;
    let next: Uint8Array;
    if (own && own.byteOffset + size <= own.buffer.byteLength) {
      next = new Uint8Array(own.buffer, own.byteOffset, size);
    } else {
      const room = new Uint8Array(Math.max(size * 2, 4096));
      room.set(prev, 0);
      next = room.subarray(0, size);
    }
    next.set(data, prev.byteLength);
    this.files.set(name, next);
    this.grown.set(name, next);
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
