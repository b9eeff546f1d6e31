import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { LithosError } from '../shared/errors';
import { errnoOf } from './fs-errors';

/**
 * A vault folder held open while a note is written, renamed or deleted in it, so that no symlink swapped
 * in along the path meanwhile can carry the change outside the vault (a check of the real path followed
 * by a write through the path string is a race another process can win).
 *
 * Where the system has /proc/self/fd (Linux, Android), the folder is opened one name at a time from the
 * vault's real root, each with O_NOFOLLOW, and the change is made through `/proc/self/fd/<n>/<name>`:
 * the kernel resolves that through the open folder itself, as openat(2) would, whatever the path's names
 * lead to by then. Elsewhere (macOS, Windows) the plain path is used and checked again afterwards
 * (`verifyInside`).
 */
const PROC_FD = '/proc/self/fd';
const procFd = ((): boolean => {
  try {
    return fs.statSync(PROC_FD).isDirectory();
  } catch {
    return false;
  }
})();

/** Whether changes are made through held folders (true) or through path strings checked afterwards. */
export const HELD_FOLDERS = procFd;

const DIR_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

/**
 * Runs `fn` with a path that names the folder `rawDir` (relative to `realRoot`, on-disk spelling) for as
 * long as `fn` runs; missing folders are created first when `create`. A name on the way that is a symlink
 * or not a folder is refused with path_outside_vault; `what` names the note for the message.
 */
export async function withVaultDir<T>(realRoot: string, rawDir: string, opts: { create: boolean; what: string }, fn: (dir: string) => Promise<T>): Promise<T> {
  const segs = rawDir.split(nodePath.sep).filter((s) => s !== '' && s !== '.');
  if (!procFd) {
    if (opts.create) await fsp.mkdir(nodePath.join(realRoot, ...segs), { recursive: true });
    return fn(nodePath.join(realRoot, ...segs));
  }
  let handle = await fsp.open(realRoot, DIR_FLAGS);
  try {
    for (const seg of segs) {
      const next = `${PROC_FD}/${handle.fd}/${seg}`;
      if (opts.create) {
        await fsp.mkdir(next).catch((err: unknown) => {
          if (errnoOf(err) !== 'EEXIST') throw err;
        });
      }
      let child: fsp.FileHandle;
      try {
        child = await fsp.open(next, DIR_FLAGS);
      } catch (err) {
        const errno = errnoOf(err);
        if (errno === 'ELOOP' || errno === 'ENOTDIR') {
          throw new LithosError('path_outside_vault', `${opts.what}: a folder on its path is a symbolic link (or not a folder); refusing to follow it.`, { folder: seg });
        }
        throw err;
      }
      await handle.close();
      handle = child;
    }
    return await fn(`${PROC_FD}/${handle.fd}`);
  } finally {
    await handle.close();
  }
}

/**
 * For systems without held folders: after a change through a path string, the file at `abs` must really be
 * inside the vault. If a symlink swapped in meanwhile carried it outside, the copy put there is removed
 * and the write is refused.
 */
export async function verifyInside(abs: string, realRoot: string, what: string): Promise<void> {
  if (procFd) return;
  const real = await fsp.realpath(abs).catch(() => null);
  if (real === null || real === realRoot || real.startsWith(realRoot + nodePath.sep)) return;
  await fsp.rm(real, { force: true }).catch(() => undefined);
  throw new LithosError('path_outside_vault', `${what}: a symbolic link was swapped in on its path while it was written; the write was undone.`, {});
}
