import { promises as fsp } from 'node:fs';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { DeviceIdentityStore } from '../shared/ports';
import { tempSuffix, writeFileAtomic } from './atomic-file';
import { errnoOf, fsError } from './fs-errors';

/**
 * Where headless Lithos keeps this device's record for a vault (shared/stores/device-identity.ts): under the
 * user's config folder, never in the vault, so a synced vault never carries it to another device.
 * `$XDG_CONFIG_HOME/lithos/devices/<hash of the vault's absolute path>.json` (default `~/.config`).
 */
export function deviceRecordPath(vaultRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.trim() !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  const key = createHash('sha256').update(resolve(vaultRoot)).digest('hex').slice(0, 24);
  return join(base, 'lithos', 'devices', `${key}.json`);
}

export class NodeDeviceStore implements DeviceIdentityStore {
  readonly file: string;

  constructor(vaultRoot: string, env: NodeJS.ProcessEnv = process.env) {
    this.file = deviceRecordPath(vaultRoot, env);
  }

  async read(): Promise<string | null> {
    try {
      return await fsp.readFile(this.file, 'utf8');
    } catch (err) {
      if (errnoOf(err) === 'ENOENT') return null;
      throw fsError(err, `read this device's record "${this.file}"`, { path: this.file });
    }
  }

  async write(text: string): Promise<void> {
    try {
      await fsp.mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      // Only this user reads it: it names the device to the vaults it writes.
      await writeFileAtomic(this.file, `${this.file}${tempSuffix()}`, text, 0o600);
    } catch (err) {
      throw fsError(err, `write this device's record "${this.file}"`, { path: this.file });
    }
  }
}
