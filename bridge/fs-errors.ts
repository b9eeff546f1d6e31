import { LithosError, type ErrorCode } from '../shared/errors';

/** The errno code of a Node fs error, or undefined for anything else. */
export function errnoOf(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

/**
 * Turns a Node fs error into a LithosError whose message says what we were doing and to what,
 * so the CLI can print it as-is. `what` is e.g. `read note "a/b.md"`.
 */
export function fsError(err: unknown, what: string, data: Record<string, unknown> = {}): LithosError {
  if (err instanceof LithosError) return err;
  const errno = errnoOf(err);
  const detail = err instanceof Error ? err.message : String(err);
  const withErrno = { ...data, errno: errno ?? null };
  const table: Record<string, [ErrorCode, string]> = {
    ENOENT: ['not_found', 'it does not exist'],
    ENOTDIR: ['not_found', 'a parent of it is a file, not a folder'],
    EISDIR: ['invalid_argument', 'it is a folder, not a file'],
    EEXIST: ['conflict', 'something already exists there'],
    ENOTEMPTY: ['conflict', 'the folder is not empty'],
    EACCES: ['internal', 'permission denied'],
    EPERM: ['internal', 'operation not permitted'],
    EROFS: ['vault_unavailable', 'the file system is read-only'],
    ENOSPC: ['internal', 'the disk is full'],
    EDQUOT: ['internal', 'the disk quota is exceeded'],
    EMFILE: ['internal', 'too many open files'],
    ENAMETOOLONG: ['invalid_argument', 'the name is too long'],
    EIO: ['internal', 'an I/O error occurred (failing disk or network share?)'],
  };
  const hit = errno ? table[errno] : undefined;
  if (hit) return new LithosError(hit[0], `Could not ${what}: ${hit[1]}.`, withErrno);
  return new LithosError('internal', `Could not ${what}: ${detail}`, withErrno);
}
