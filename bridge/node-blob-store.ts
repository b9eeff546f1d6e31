import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { BlobStore } from '../shared/ports';
import { LithosError } from '../shared/errors';
import { errnoOf, fsError } from './fs-errors';
import { TEMP_SUFFIX_RE, fsyncDir, removeIfStale, tempSuffix, writeFileAtomic } from './atomic-file';

/** `.lithos/` holds learned signals about the user's notes: private to the user. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * BlobStore over `<vault>/.lithos/`. The folder is created on first write (never the vault itself:
 * a missing vault is vault_unavailable). Names are '/'-separated and stay inside the folder.
 */
export class NodeBlobStore implements BlobStore {
  readonly dir: string;

  constructor(lithosDir: string) {
    this.dir = nodePath.resolve(lithosDir);
  }

  async read(name: string): Promise<Uint8Array | null> {
    const abs = this.pathOf(name);
    try {
      const buf = await fsp.readFile(abs);
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    } catch (err) {
      if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return null;
      throw await this.failure(err, `read ".lithos/${name}"`, name);
    }
  }

  async writeAtomic(name: string, data: Uint8Array): Promise<void> {
    const abs = this.pathOf(name);
    try {
      await this.ensureParent(abs);
      await writeFileAtomic(abs, `${abs}.${tempSuffix()}`, data, FILE_MODE);
    } catch (err) {
      throw await this.failure(err, `write ".lithos/${name}"`, name);
    }
  }

  async append(name: string, data: Uint8Array): Promise<void> {
    const abs = this.pathOf(name);
    try {
      const created = await this.ensureParent(abs);
      const h = await fsp.open(abs, 'a', FILE_MODE);
      try {
        await h.writeFile(data);
        await h.sync(); // the journal's durability point: resolve only once the bytes are on disk
      } finally {
        await h.close();
      }
      if (created) await fsyncDir(nodePath.dirname(abs));
    } catch (err) {
      throw await this.failure(err, `append to ".lithos/${name}"`, name);
    }
  }

  async remove(name: string): Promise<void> {
    try {
      await fsp.rm(this.pathOf(name), { force: true });
    } catch (err) {
      throw await this.failure(err, `remove ".lithos/${name}"`, name);
    }
  }

  /** Names under the folder, recursive, sorted; leftovers of interrupted atomic writes are hidden. */
  async list(prefix = ''): Promise<string[]> {
    const out: string[] = [];
    const walk = async (rel: string): Promise<void> => {
      let entries;
      try {
        entries = await fsp.readdir(nodePath.join(this.dir, rel), { withFileTypes: true });
      } catch (err) {
        if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return;
        throw await this.failure(err, `list ".lithos/${rel}"`, rel);
      }
      for (const ent of entries) {
        const name = rel ? `${rel}/${ent.name}` : ent.name;
        if (ent.isDirectory()) await walk(name);
        else if (ent.isFile() && !TEMP_SUFFIX_RE.test(name) && name.startsWith(prefix)) out.push(name);
      }
    };
    await walk('');
    return out.sort();
  }

  /** Deletes temp files interrupted writes left in `.lithos/` (older than an hour); how many went. */
  async sweepTemps(): Promise<number> {
    let removed = 0;
    const walk = async (rel: string): Promise<void> => {
      const entries = await fsp.readdir(nodePath.join(this.dir, rel), { withFileTypes: true }).catch(() => []);
      for (const ent of entries) {
        const name = rel ? `${rel}/${ent.name}` : ent.name;
        if (ent.isDirectory()) await walk(name);
        else if (TEMP_SUFFIX_RE.test(ent.name) && (await removeIfStale(nodePath.join(this.dir, name)))) removed++;
      }
    };
    await walk('');
    return removed;
  }

  /** Refuses names that are empty, absolute, or would step out of `.lithos/`. */
  private pathOf(name: string): string {
    const segs = typeof name === 'string' ? name.split('/') : [];
    const bad =
      segs.length === 0 ||
      name.includes('\0') ||
      name.includes('\\') ||
      segs.some((s) => s === '' || s === '.' || s === '..') ||
      /^[a-zA-Z]:/.test(name);
    if (bad) {
      throw new LithosError('invalid_argument', `Invalid store file name "${String(name)}": use '/'-separated names inside .lithos/, without '..'.`, { name });
    }
    return nodePath.join(this.dir, ...segs);
  }

  /** Creates `.lithos/` and sub-folders as needed; returns true when the file's folder was new. */
  private async ensureParent(abs: string): Promise<boolean> {
    const parent = nodePath.dirname(abs);
    if (await isDir(parent)) return false;
    const vaultRoot = nodePath.dirname(this.dir);
    if (!(await isDir(vaultRoot))) throw this.unavailable();
    await fsp.mkdir(parent, { recursive: true, mode: DIR_MODE });
    return true;
  }

  private unavailable(): LithosError {
    const vaultRoot = nodePath.dirname(this.dir);
    return new LithosError('vault_unavailable', `The vault folder "${vaultRoot}" is missing, so ".lithos/" cannot be used (moved, deleted, or an unmounted drive?).`, { root: vaultRoot });
  }

  private async failure(err: unknown, what: string, name: string): Promise<LithosError> {
    if (err instanceof LithosError) return err;
    if (!(await isDir(nodePath.dirname(this.dir)))) return this.unavailable();
    return fsError(err, what, { name });
  }
}

async function isDir(abs: string): Promise<boolean> {
  return fsp.stat(abs).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
