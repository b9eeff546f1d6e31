import { LithosError } from '../../shared/errors';
import type { HostRuntime } from './host-runtime';
import { writeOwnerOnly } from './owner-only-file';

/** `<vault>/.lithos/bridge-token`: the vault's bearer token, kept across restarts until regenerated. */
export const TOKEN_FILE = 'bridge-token';
const TOKEN_RE = /^[0-9a-f]{64}$/;

/** 256 random bits, hex. */
export function newToken(rt: HostRuntime): string {
  return rt.crypto.randomBytes(32).toString('hex');
}

/** The persisted token, or a new one (persisted) when the file is missing or damaged. */
export async function loadOrCreateToken(rt: HostRuntime, lithosDir: string): Promise<string> {
  await rt.fs.mkdir(lithosDir, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw new LithosError('vault_unavailable', `Cannot create "${lithosDir}" (is the vault folder there?): ${err.message}`);
  });
  const file = rt.path.join(lithosDir, TOKEN_FILE);
  const text = await rt.fs.readFile(file, 'utf8').catch(() => '');
  if (TOKEN_RE.test(text.trim())) {
    // A token file copied in or restored from a backup may be readable by others: owner-only, like a new one.
    await rt.fs.chmod(file, 0o600).catch(() => undefined);
    return text.trim();
  }
  const token = newToken(rt);
  await saveToken(rt, lithosDir, token);
  return token;
}

export async function saveToken(rt: HostRuntime, lithosDir: string, token: string): Promise<void> {
  try {
    await writeOwnerOnly(rt, rt.path.join(lithosDir, TOKEN_FILE), `${token}\n`);
  } catch (err) {
    throw new LithosError('vault_unavailable', `Could not save the bridge token in "${lithosDir}": ${err instanceof Error ? err.message : String(err)}`);
  }
}

export function tokenDigest(rt: HostRuntime, token: string): Buffer {
  return rt.crypto.createHash('sha256').update(token, 'utf8').digest();
}

/** Compares digests, not tokens, so the comparison takes the same time whatever was presented. */
export function tokenMatches(rt: HostRuntime, presented: string, expected: Buffer): boolean {
  return rt.crypto.timingSafeEqual(tokenDigest(rt, presented), expected);
}
