import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deviceRecordPath, NodeDeviceStore } from '../../bridge/node-device-store';
import { DeviceIdentity } from '../../shared/stores/device-identity';
import { FakeClock } from '../twins/fake-clock';

describe('headless device record', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lithos-device-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('lives under $XDG_CONFIG_HOME/lithos/devices (else ~/.config), one file per vault path, never in the vault', async () => {
    const vault = join(dir, 'vault');
    const env = { XDG_CONFIG_HOME: join(dir, 'config') };
    const file = deviceRecordPath(vault, env);
    expect(file.startsWith(join(dir, 'config', 'lithos', 'devices') + '/')).toBe(true);
    expect(file.startsWith(vault)).toBe(false);
    expect(deviceRecordPath(join(dir, 'other'), env)).not.toBe(file);
    expect(deviceRecordPath(vault, {}).includes(join('.config', 'lithos', 'devices'))).toBe(true);

    const store = new NodeDeviceStore(vault, env);
    expect(await store.read()).toBeNull();
    const first = await DeviceIdentity.load(store, new FakeClock());
    const again = await DeviceIdentity.load(new NodeDeviceStore(vault, env), new FakeClock());
    expect([again.id, again.tag, again.fingerprint]).toEqual([first.id, first.tag, first.fingerprint]);
    expect(await readdir(join(dir, 'config', 'lithos', 'devices'))).toEqual([file.slice(file.lastIndexOf('/') + 1)]);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('an unreadable record makes a new device rather than failing the open', async () => {
    const store = new NodeDeviceStore(join(dir, 'vault'), { XDG_CONFIG_HOME: dir });
    await store.write('{not json');
    const d = await DeviceIdentity.load(store, new FakeClock());
    expect(d.tag).toMatch(/^[a-z2-7]{4}$/);
    expect(JSON.parse((await store.read())!)).toEqual({ id: d.id, tag: d.tag, created: d.created });
  });
});
