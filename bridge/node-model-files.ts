import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ModelFilePort } from '../shared/index/embedders/model-download';

/** The model downloader's files under one folder on disk ('/'-separated paths below it). */
export class NodeModelFiles implements ModelFilePort {
  constructor(private readonly root: string) {}

  private abs(path: string): string {
    return join(this.root, ...path.split('/'));
  }

  async size(path: string): Promise<number | null> {
    try {
      const s = await stat(this.abs(path));
      return s.isFile() ? s.size : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async append(path: string, bytes: Uint8Array): Promise<void> {
    await mkdir(dirname(this.abs(path)), { recursive: true });
    await appendFile(this.abs(path), bytes);
  }

  async replace(from: string, to: string): Promise<void> {
    await rename(this.abs(from), this.abs(to));
  }

  async remove(path: string): Promise<void> {
    await rm(this.abs(path), { force: true });
  }

  /** Streamed: the weights are never held in memory whole. */
  sha256(path: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const hash = createHash('sha256');
      createReadStream(this.abs(path))
        .on('data', (chunk) => hash.update(chunk))
        .on('error', reject)
        .on('end', () => resolve(hash.digest('hex')));
    });
  }
}
