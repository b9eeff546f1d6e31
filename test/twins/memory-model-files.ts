import { createHash } from 'node:crypto';
import type { ModelFilePort } from '../../shared/index/embedders/model-download';

/** In-memory twin of the downloader's file port; `failWrites` makes every append fail (a full disk). */
export class MemoryModelFiles implements ModelFilePort {
  readonly files = new Map<string, Uint8Array>();
  failWrites: string | null = null;

  async size(path: string): Promise<number | null> {
    return this.files.get(path)?.byteLength ?? null;
  }
  async append(path: string, bytes: Uint8Array): Promise<void> {
    if (this.failWrites) throw new Error(this.failWrites);
    const prev = this.files.get(path) ?? new Uint8Array(0);
    const next = new Uint8Array(prev.byteLength + bytes.byteLength);
    next.set(prev, 0);
    next.set(bytes, prev.byteLength);
    this.files.set(path, next);
  }
  async replace(from: string, to: string): Promise<void> {
    const bytes = this.files.get(from);
    if (!bytes) throw new Error(`ENOENT: ${from}`);
    this.files.delete(from);
    this.files.set(to, bytes);
  }
  async remove(path: string): Promise<void> {
    if (!this.files.delete(path)) throw new Error(`ENOENT: ${path}`);
  }
  async sha256(path: string): Promise<string> {
    const bytes = this.files.get(path);
    if (!bytes) throw new Error(`ENOENT: ${path}`);
    return createHash('sha256').update(bytes).digest('hex');
  }
}
