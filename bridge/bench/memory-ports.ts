import type { BlobStore, DeviceIdentityStore, SyncFolderPort } from '../../shared/ports';

/**
 * In-memory ports for the bench's simulated second device (device-month.ts): its month of learning runs
 * without a disk, so the bench measures the main device's merge, not the simulation's fsyncs. Appends keep
 * chunks and join them on read, so a growing journal or segment is not copied on every append.
 */
class ChunkFiles {
  readonly files = new Map<string, Uint8Array[]>();

  read(name: string): Uint8Array | null {
    const chunks = this.files.get(name);
    if (!chunks) return null;
    if (chunks.length > 1) {
      const whole = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
      let at = 0;
      for (const c of chunks) {
        whole.set(c, at);
        at += c.byteLength;
      }
      chunks.splice(0, chunks.length, whole);
    }
    return chunks[0] ?? new Uint8Array();
  }

  size(name: string): number {
    return (this.files.get(name) ?? []).reduce((n, c) => n + c.byteLength, 0);
  }

  append(name: string, data: Uint8Array): void {
    const chunks = this.files.get(name) ?? [];
    chunks.push(data.slice());
    this.files.set(name, chunks);
  }

  write(name: string, data: Uint8Array): void {
    this.files.set(name, [data.slice()]);
  }
}

export class MemoryBlobs implements BlobStore {
  private readonly f = new ChunkFiles();
  read(name: string): Promise<Uint8Array | null> {
    return Promise.resolve(this.f.read(name));
  }
  writeAtomic(name: string, data: Uint8Array): Promise<void> {
    this.f.write(name, data);
    return Promise.resolve();
  }
  append(name: string, data: Uint8Array): Promise<void> {
    this.f.append(name, data);
    return Promise.resolve();
  }
  remove(name: string): Promise<void> {
    this.f.files.delete(name);
    return Promise.resolve();
  }
  list(prefix = ''): Promise<string[]> {
    return Promise.resolve([...this.f.files.keys()].filter((k) => k.startsWith(prefix)));
  }
}

export class MemoryFolder implements SyncFolderPort {
  private readonly f = new ChunkFiles();
  list(): Promise<{ path: string; size: number }[]> {
    return Promise.resolve([...this.f.files.keys()].map((path) => ({ path, size: this.f.size(path) })));
  }
  read(path: string): Promise<Uint8Array | null> {
    return Promise.resolve(this.f.read(path));
  }
  append(path: string, data: Uint8Array): Promise<void> {
    this.f.append(path, data);
    return Promise.resolve();
  }
  writeAtomic(path: string, data: Uint8Array): Promise<void> {
    this.f.write(path, data);
    return Promise.resolve();
  }
  remove(path: string): Promise<void> {
    this.f.files.delete(path);
    return Promise.resolve();
  }
  /** Every file, whole (to write into the bench vault's devices folder). */
  entries(): [string, Uint8Array][] {
    return [...this.f.files.keys()].map((p) => [p, this.f.read(p) ?? new Uint8Array()]);
  }
}

/** This device's identity record kept in memory: every engine the bench opens is the same device. */
export class MemoryDeviceRecord implements DeviceIdentityStore {
  private text: string | null = null;
  read(): Promise<string | null> {
    return Promise.resolve(this.text);
  }
  write(text: string): Promise<void> {
    this.text = text;
    return Promise.resolve();
  }
}
