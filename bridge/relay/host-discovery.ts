import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LithosError } from '../../shared/errors';
import { BRIDGE_FILE, BridgeFileSchema, type BridgeFile } from '../../shared/protocol/bridge-file';
import { protocolMismatch } from '../../shared/protocol/handshake';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import { errnoOf } from '../fs-errors';

/**
 * Where the vault's live host is: bridge.json, read afresh on every attempt (the port may have changed, the
 * token been regenerated). Fails with `unavailable` (retryable) when no live host is announced, with
 * `protocol_mismatch` when the host announces another protocol version.
 */
export async function discoverHost(vaultRoot: string, bridgeVersion: string): Promise<BridgeFile> {
  const file = join(vaultRoot, '.lithos', BRIDGE_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const why = errnoOf(err) === 'ENOENT' ? 'no .lithos/bridge.json' : `cannot read .lithos/bridge.json: ${(err as Error).message}`;
    throw new LithosError('unavailable', `No Lithos host is running for vault "${vaultRoot}" (${why}). Open the vault in Obsidian with Lithos Memory enabled.`, { retryable: true });
  }
  let info: BridgeFile;
  try {
    info = BridgeFileSchema.parse(JSON.parse(text));
  } catch {
    throw new LithosError('unavailable', `"${file}" is damaged or half-written; waiting for the host to rewrite it.`, { retryable: true });
  }
  if (info.protocol_version !== PROTOCOL_VERSION) {
    throw protocolMismatch({ bridge_protocol: PROTOCOL_VERSION, plugin_protocol: info.protocol_version, bridge_version: bridgeVersion, plugin_version: info.plugin_version });
  }
  if (!pidAlive(info.pid)) {
    throw new LithosError('unavailable', `"${file}" names process ${info.pid}, which is not running (Obsidian closed or crashed). Open the vault in Obsidian.`, { retryable: true, pid: info.pid });
  }
  return info;
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoOf(err) === 'EPERM'; // exists, just not ours to signal
  }
}
