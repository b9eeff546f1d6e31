import type { DeviceEntry, DevicesReport } from '../shared/replica/device-sync';
import type { SyncReport } from '../shared/replica/replicator';
import { ago } from './panels/format';

/**
 * What the plugin says about the exchange of learned state with the person's other devices (docs/devices.md):
 * the last merge for the status bar, a device's row in settings, and the notice of
 * "Sync learning with other devices now". Pure, so the wording is tested without Obsidian.
 */

/** A device as a person reads it: its name, or the start of its fingerprint when its device.json has not arrived. */
export function deviceLabel(d: Pick<DeviceEntry, 'name' | 'device'>): string {
  return d.name ?? `device ${d.device.slice(0, 6)}`;
}

/** The other device whose learning was merged here most recently, or null (none yet, or the exchange is off). */
export function lastMerged(report: DevicesReport): DeviceEntry | null {
  let best: DeviceEntry | null = null;
  for (const d of report.devices) {
    if (d.this_device || d.merged_at === null) continue;
    if (!best || (best.merged_at as string) < d.merged_at) best = d;
  }
  return best;
}

/** "Learning from Obsidian on iPhone merged 2 min ago", or null when no other device's learning was merged. */
export function lastMergeText(report: DevicesReport, now: number): string | null {
  const d = lastMerged(report);
  return d ? `Learning from ${deviceLabel(d)} merged ${ago(d.merged_at, now)}` : null;
}

/** One device's line in Settings → Learning → Devices. */
export function deviceDesc(d: DeviceEntry, now: number): string {
  const rows = `${d.rows} learned ${d.rows === 1 ? 'row' : 'rows'}`;
  const change = `last change ${ago(d.last_change, now)}`;
  if (d.this_device) return `This device · ${rows} · ${change}`;
  return `${rows} · ${change} · merged here ${ago(d.merged_at, now)}`;
}

/** The notice after one round run by the command; `round` null: the exchange is off, or the round failed. */
export function syncNoticeText(round: SyncReport | null, report: DevicesReport): string {
  if (report.folder === null) return 'Lithos: learning is not exchanged with other devices (devices.folder in .lithos/learning.json is off).';
  if (!round) return 'Lithos: exchanging learning with other devices failed (details in the console); it is tried again later.';
  const others = report.devices.filter((d) => !d.this_device).length;
  const parts = [`published ${round.published} ${round.published === 1 ? 'row' : 'rows'}`];
  if (round.from.length > 0) {
    const names = round.from.map((f) => f.name ?? `device ${f.device.slice(0, 6)}`).join(', ');
    parts.push(`merged ${round.merged} ${round.merged === 1 ? 'row' : 'rows'} from ${names}`);
  } else {
    parts.push(others === 0 ? `no other device has written to ${report.folder} yet` : 'nothing new from the other devices');
  }
  if (round.pending > 0) parts.push(`${round.pending} waiting for notes not synced here yet`);
  if (round.bad > 0) parts.push(`${round.bad} damaged ${round.bad === 1 ? 'line' : 'lines'} skipped`);
  return `Lithos: learning synced with other devices: ${parts.join('; ')}.`;
}
