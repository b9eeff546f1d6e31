import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { randomBytes } from 'node:crypto';
import { errnoOf } from './fs-errors';

/** A temp-file suffix unique to this process and call: `tmp-<pid>-<rand>`. */
export function tempSuffix(): string {
  return `tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** Matches names produced with tempSuffix(), so listings can hide leftovers of a crash. */
export const TEMP_SUFFIX_RE = /\.tmp-\d+-[0-9a-f]+$/;

/** A temp file older than this is what a crash left behind; a newer one may be a write under way. */
export const TEMP_MAX_AGE_MS = 3600_000;

/** Deletes a leftover temp file once it is older than TEMP_MAX_AGE_MS; true when it went. */
export async function removeIfStale(abs: string, now = Date.now()): Promise<boolean> {
  const st = await fsp.lstat(abs).catch(() => null);
  if (!st || !st.isFile() || now - st.mtimeMs < TEMP_MAX_AGE_MS) return false;
  return fsp.rm(abs, { force: true }).then(
    () => true,
    () => false,
  );
}

/**
 * Replaces `target` atomically: write `tmp` (same folder, so rename never crosses devices), fsync it,
 * rename over the target, then fsync the folder so the rename itself survives a power cut.
 * An existing target's permission bits are kept; a new file's follow the umask. On any failure the temp
 * file is removed.
 */
export async function writeFileAtomic(target: string, tmp: string, data: Uint8Array | string, newFileMode = 0o666): Promise<void> {
  // An existing target's bits are kept exactly; a new file gets newFileMode less the umask, as any
  // program's new file does (chmod'ing 0o666 made notes world-writable under a 022 or 077 umask).
  let keep: number | null = null;
  try {
    keep = (await fsp.stat(target)).mode & 0o7777;
  } catch {
    // new file
  }
  try {
    const handle = await fsp.open(tmp, 'wx', keep ?? newFileMode);
    try {
      await handle.writeFile(data);
      if (keep !== null) await handle.chmod(keep); // open()'s mode was filtered by the umask; the old file's bits are not
      await handle.sync();
    } finally {
      await handle.close();
    }
    await renameWithRetry(tmp, target);
  } catch (err) {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
  await fsyncDir(nodePath.dirname(target));
}

/** Best effort: not every platform lets a folder be opened and fsync'ed (Windows does not). */
export async function fsyncDir(dir: string): Promise<void> {
  try {
    const h = await fsp.open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    // the data itself was fsync'ed; only the rename's durability is weaker here
  }
}

/** On Windows a rename over a file that another program (Obsidian, antivirus, sync client) holds open fails briefly. */
async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fsp.rename(from, to);
      return;
    } catch (err) {
      const transient = process.platform === 'win32' && ['EPERM', 'EACCES', 'EBUSY'].includes(errnoOf(err) ?? '');
      if (!transient || attempt >= 4) throw err;
      await new Promise((r) => setTimeout(r, 25 * (attempt + 1)));
    }
  }
}
