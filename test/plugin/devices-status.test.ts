import { deviceDesc, lastMergeText, syncNoticeText } from '../../plugin/devices-status';
import { obsidianDeviceName } from '../../plugin/device-name';
import type { DeviceEntry, DevicesReport } from '../../shared/replica/device-sync';
import type { SyncReport } from '../../shared/replica/replicator';

/** What the plugin says about the person's other devices: its own name, the status line, settings rows, the command's notice. */

const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const minutesAgo = (m: number): string => new Date(NOW - m * 60_000).toISOString();

const me: DeviceEntry = { device: 'aaaaaaaaaaaaaaaa', name: 'Obsidian on laptop', tag: 'aaaa', this_device: true, rows: 12, last_change: minutesAgo(1), merged_at: null };
const phone: DeviceEntry = { device: 'bbbbbbbbbbbbbbbb', name: 'Obsidian on iPhone', tag: 'bbbb', this_device: false, rows: 1, last_change: minutesAgo(30), merged_at: minutesAgo(2) };
const desktop: DeviceEntry = { device: 'cccccccccccccccc', name: null, tag: null, this_device: false, rows: 40, last_change: minutesAgo(90), merged_at: minutesAgo(75) };
const report = (devices: DeviceEntry[], folder: string | null = 'Lithos/Devices'): DevicesReport => ({ folder, devices, last: null, unpublished: 0 });
const round = (r: Partial<SyncReport> = {}): SyncReport => ({ at: NOW, published: 0, merged: 0, pending: 0, from: [], bad: 0, torn: 0, unknown: 0, compacted: false, ...r });

describe("this device's name, as the other devices list it", () => {
  test('desktop: the computer name the person gave it ("MacBook.local" reads as MacBook)', () => {
    expect(obsidianDeviceName({ isMacOS: true }, 'MacBook.local')).toBe('Obsidian on MacBook');
    expect(obsidianDeviceName({ isWin: true }, 'DESKTOP-7Q2')).toBe('Obsidian on DESKTOP-7Q2');
  });

  test('without a computer name: the operating system', () => {
    expect(obsidianDeviceName({ isLinux: true }, null)).toBe('Obsidian on Linux');
    expect(obsidianDeviceName({ isWin: true }, '  ')).toBe('Obsidian on Windows');
  });

  test('mobile: the kind of device, never a name', () => {
    expect(obsidianDeviceName({ isIosApp: true }, null)).toBe('Obsidian on iPhone');
    expect(obsidianDeviceName({ isIosApp: true, isTablet: true }, null)).toBe('Obsidian on iPad');
    expect(obsidianDeviceName({ isAndroidApp: true }, 'localhost')).toBe('Obsidian on Android phone');
    expect(obsidianDeviceName({ isAndroidApp: true, isTablet: true }, null)).toBe('Obsidian on Android tablet');
  });
});

describe('the status line about the last merge', () => {
  test("names the device whose learning was merged most recently, and when", () => {
    expect(lastMergeText(report([me, desktop, phone]), NOW)).toBe('Learning from Obsidian on iPhone merged 2 min ago');
  });

  test('a device whose device.json has not arrived yet is named by the start of its fingerprint', () => {
    expect(lastMergeText(report([me, desktop]), NOW)).toBe('Learning from device cccccc merged 1 h ago');
  });

  test("nothing to say when only this device wrote, or no other device's learning was merged yet", () => {
    expect(lastMergeText(report([me]), NOW)).toBeNull();
    expect(lastMergeText(report([me, { ...phone, merged_at: null }]), NOW)).toBeNull();
  });
});

describe('a device in Settings → Learning → Devices', () => {
  test('this device: its rows and last change', () => {
    expect(deviceDesc(me, NOW)).toBe('This device · 12 learned rows · last change 1 min ago');
  });

  test('another device: its rows, last change and when its learning was merged here', () => {
    expect(deviceDesc(phone, NOW)).toBe('1 learned row · last change 30 min ago · merged here 2 min ago');
    expect(deviceDesc({ ...phone, merged_at: null, last_change: null }, NOW)).toBe('1 learned row · last change never · merged here never');
  });
});

describe('the notice of "Sync learning with other devices now"', () => {
  test('says what the round published and merged, and from whom', () => {
    const r = round({ published: 3, merged: 5, from: [{ device: phone.device, name: 'Obsidian on iPhone', lines: 7 }, { device: desktop.device, name: null, lines: 1 }] });
    expect(syncNoticeText(r, report([me, phone, desktop]))).toBe('Lithos: learning synced with other devices: published 3 rows; merged 5 rows from Obsidian on iPhone, device cccccc.');
  });

  test('with no other device yet, says where the others would write', () => {
    expect(syncNoticeText(round({ published: 1 }), report([me]))).toBe('Lithos: learning synced with other devices: published 1 row; no other device has written to Lithos/Devices yet.');
    expect(syncNoticeText(round(), report([me, phone]))).toBe('Lithos: learning synced with other devices: published 0 rows; nothing new from the other devices.');
  });

  test('learning waiting for notes not synced here yet, and damaged lines, are said', () => {
    const r = round({ merged: 1, pending: 2, bad: 1, from: [{ device: phone.device, name: 'Obsidian on iPhone', lines: 3 }] });
    expect(syncNoticeText(r, report([me, phone]))).toBe(
      'Lithos: learning synced with other devices: published 0 rows; merged 1 row from Obsidian on iPhone; 2 waiting for notes not synced here yet; 1 damaged line skipped.',
    );
  });

  test('the exchange switched off, and a failed round, are told apart', () => {
    expect(syncNoticeText(null, report([me], null))).toBe('Lithos: learning is not exchanged with other devices (devices.folder in .lithos/learning.json is off).');
    expect(syncNoticeText(null, report([me]))).toBe('Lithos: exchanging learning with other devices failed (details in the console); it is tried again later.');
  });
});
