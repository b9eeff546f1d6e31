import type { HostRuntime } from './host-runtime';

/**
 * Replaces `file` atomically with owner-only permissions (0600): a temp file in the same folder, fsync'd,
 * renamed over the target. Readers see the old content or the new, never a torn file or a looser mode.
 */
export async function writeOwnerOnly(rt: HostRuntime, file: string, text: string): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${rt.crypto.randomBytes(6).toString('hex')}`;
  try {
    const h = await rt.fs.open(tmp, 'wx', 0o600);
    try {
      await h.writeFile(text, 'utf8');
      await h.chmod(0o600); // open()'s mode passes through the umask; make it exact
      await h.sync();
    } finally {
      await h.close();
    }
    await rt.fs.rename(tmp, file);
  } catch (err) {
    await rt.fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}
