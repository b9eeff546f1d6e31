import { DEVICE_STORAGE_KEY, ObsidianDeviceStore } from '../../plugin/obsidian-device-store';
import { DeviceIdentity } from '../../shared/stores/device-identity';
import { FakeClock } from '../twins/fake-clock';

/** Obsidian's per-device local storage (App.loadLocalStorage / saveLocalStorage), as a map. */
function localStorageApp() {
  const stored = new Map<string, unknown>();
  return {
    stored,
    loadLocalStorage: (key: string): unknown => stored.get(key) ?? null,
    saveLocalStorage: (key: string, data: unknown): void => void stored.set(key, data),
  };
}

test('the plugin keeps this device\'s record in Obsidian\'s local storage, and reads the same device back', async () => {
  const app = localStorageApp();
  const first = await DeviceIdentity.load(new ObsidianDeviceStore(app), new FakeClock());
  expect(JSON.parse(app.stored.get(DEVICE_STORAGE_KEY) as string)).toEqual({ id: first.id, tag: first.tag, created: first.created });
  const again = await DeviceIdentity.load(new ObsidianDeviceStore(app), new FakeClock());
  expect([again.id, again.tag]).toEqual([first.id, first.tag]);
  // Another device (another local storage) is another identity.
  expect((await DeviceIdentity.load(new ObsidianDeviceStore(localStorageApp()), new FakeClock())).id).not.toBe(first.id);
});
