import type { App } from 'obsidian';
import type { DeviceIdentityStore } from '../shared/ports';

/** The key of this device's record (shared/stores/device-identity.ts) in Obsidian's local storage. */
export const DEVICE_STORAGE_KEY = 'lithos-device';

/**
 * This device's record for the vault in Obsidian's per-device local storage (App.loadLocalStorage, kept per
 * vault on this device): unlike data.json or anything in the vault folder, it never syncs to another device.
 */
export class ObsidianDeviceStore implements DeviceIdentityStore {
  constructor(private readonly app: Pick<App, 'loadLocalStorage' | 'saveLocalStorage'>) {}

  async read(): Promise<string | null> {
    const v: unknown = this.app.loadLocalStorage(DEVICE_STORAGE_KEY);
    return typeof v === 'string' ? v : null;
  }

  async write(text: string): Promise<void> {
    this.app.saveLocalStorage(DEVICE_STORAGE_KEY, text);
  }
}
