import type { EventRef, TAbstractFile, Vault } from 'obsidian';
import type { DeviceSync } from '../shared/replica/device-sync';
import { normalizeVaultPath } from '../shared/model/paths';
import { lastMergeText } from './devices-status';

/**
 * How soon after another device's file arrives (Obsidian Sync, iCloud, Syncthing write it into the vault) a
 * round takes it in: a sync tool writes several files in a burst, so one round after a second of quiet.
 */
export const ARRIVAL_QUIET_MS = 1_000;

export type DevicesVault = Pick<Vault, 'on' | 'offref'>;

/**
 * Keeps the plugin's engine exchanging learned state with the person's other devices (docs/devices.md):
 * a round every minute, a round a second after another device's file in the devices folder is created,
 * changed or renamed, and after every round the status line about the last merge. Files in this device's
 * own folder are its own writes and start nothing. Returns what stops it (the engine closes).
 */
export function followDevices(
  devices: Pick<DeviceSync, 'report' | 'schedule' | 'poll' | 'onSynced'>,
  vault: DevicesVault,
  registerEvent: (ref: EventRef) => void,
  status: (line: string | null) => void,
  now: () => number = Date.now,
): () => void {
  const report = devices.report();
  if (report.folder === null) {
    status(null);
    return () => undefined;
  }
  const root = `${normalizeVaultPath(report.folder)}/`;
  const me = report.devices.find((d) => d.this_device)?.device;
  const own = me ? `${root}${me}/` : null;
  const another = (path: string | undefined): boolean => !!path && path.startsWith(root) && !(own !== null && path.startsWith(own));
  const arrived = (file: TAbstractFile, oldPath?: string): void => {
    if (another(file.path) || another(oldPath)) devices.schedule(ARRIVAL_QUIET_MS);
  };
  const refs = [vault.on('create', (f) => arrived(f)), vault.on('modify', (f) => arrived(f)), vault.on('rename', (f, oldPath) => arrived(f, oldPath))];
  for (const ref of refs) registerEvent(ref);
  devices.onSynced(() => status(lastMergeText(devices.report(), now())));
  status(lastMergeText(report, now()));
  devices.poll();
  return () => {
    devices.onSynced(null);
    for (const ref of refs) vault.offref(ref);
  };
}
