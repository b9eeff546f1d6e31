import { hostname } from 'os';
import type { TFile } from 'obsidian';
import { FakeApp } from './fake-obsidian';
import { builtPluginForSuite, eventually, indexItem, pluginHost, settingsTab, type LoadedPlugin, type PluginHost } from './plugin-harness';
import { makeDevice, type SimDevice } from '../replica/devices-sim';

/**
 * Spec (issue 22, in Obsidian): the built plugin, on mobile as on desktop, writes what it learned into the
 * devices folder of the vault and takes in what the person's other devices wrote there as soon as Obsidian
 * reports their files; the status bar says whose learning was merged last, Settings lists the devices, and
 * "Sync learning with other devices now" runs one round and says what it did.
 */

const built = builtPluginForSuite();
const NOTES = { 'alpha.md': '# Alpha\nThe quick brown fox.\n', 'notes/beta.md': '# Beta\nLazy dogs.\n' };

const running: { h: PluginHost; p: LoadedPlugin }[] = [];
afterEach(async () => {
  for (const { h, p } of running.splice(0)) {
    p.unload();
    await eventually(() => !h.app.adapter.files.has('.lithos/lock.json'), () => 'lock still held');
    h.dispose();
  }
});

async function ready(desktop = false): Promise<{ h: PluginHost; p: LoadedPlugin; app: FakeApp }> {
  const app = FakeApp.with(NOTES);
  app.metadataCache.resolved = true;
  app.workspace.finishLayout();
  const h = pluginHost(built.code, built.manifest, { app, desktop, store: { data: { settings: { bridge: { enabled: false } } }, saves: 0 } });
  const p = await h.load();
  running.push({ h, p });
  await eventually(() => indexItem(p).textContent === 'Lithos: ready · 2 notes', () => indexItem(p).textContent);
  return { h, p, app };
}

/** This device's device.json, once its first round wrote it. */
async function ownDeviceInfo(app: FakeApp): Promise<{ path: string; name: string }> {
  let found: { path: string; name: string } | null = null;
  await eventually(() => {
    const path = [...app.adapter.files.keys()].find((p) => /^Lithos\/Devices\/[a-z2-7]{16}\/device\.json$/.test(p));
    found = path ? { path, name: (JSON.parse(app.adapter.text(path) ?? '{}') as { name: string }).name } : null;
    return found !== null;
  }, () => [...app.adapter.files.keys()]);
  return found as unknown as { path: string; name: string };
}

/** Another device that used notes/beta.md twice and wrote its files; a sync tool then puts them into this vault. */
async function otherDeviceArrives(app: FakeApp): Promise<SimDevice> {
  const d = await makeDevice(1, Object.keys(NOTES));
  const a = d.id('notes/beta.md');
  await d.store.stats.update(a, { use_count: d.store.stats.get(a).use_count + 2 });
  await d.replicator.sync();
  for (const [p, bytes] of d.folder.files) app.adapter.put(`Lithos/Devices/${p}`, bytes);
  app.vault.sync();
  for (const p of d.folder.files.keys()) app.vault.emit('create', app.vault.getAbstractFileByPath(`Lithos/Devices/${p}`) as TFile);
  return d;
}

async function run(r: { h: PluginHost; p: LoadedPlugin }, id: string): Promise<string> {
  const before = r.h.record.notices.length;
  r.p.runCommand(id);
  await eventually(() => r.h.record.notices.length > before, () => r.h.record.notices);
  return r.h.record.notices[r.h.record.notices.length - 1];
}

test('on mobile: this device announces itself in the devices folder by the kind of device, with no Node API', async () => {
  const r = await ready(false);
  expect((await ownDeviceInfo(r.app)).name).toBe('Obsidian on Android phone');
  expect(r.h.required.filter((id) => id !== 'obsidian')).toEqual([]);
});

test('on desktop: this device is named after the computer', async () => {
  const r = await ready(true);
  expect((await ownDeviceInfo(r.app)).name).toBe(`Obsidian on ${hostname().replace(/\.local$/i, '')}`);
});

test("another device's learning arriving through the vault is merged without a command, and the status bar says so", async () => {
  const r = await ready();
  await ownDeviceInfo(r.app);
  expect(indexItem(r.p).attrs.get('aria-label')).toBeUndefined(); // nothing merged yet
  await otherDeviceArrives(r.app);
  await eventually(() => /^Learning from device 1 merged .+ ago$/.test(indexItem(r.p).attrs.get('aria-label') ?? ''), () => indexItem(r.p).attrs.get('aria-label'));
  expect(indexItem(r.p).textContent).toBe('Lithos: ready · 2 notes');
});

test('Settings → Learning → Devices lists the folder and every device: rows, last change, merged here', async () => {
  const r = await ready();
  const me = await ownDeviceInfo(r.app);
  await otherDeviceArrives(r.app);
  await eventually(() => (indexItem(r.p).attrs.get('aria-label') ?? '').startsWith('Learning from device 1'));
  const tab = settingsTab(r.p);
  expect(tab.find('Devices').desc).toMatch(/writes what it learned into Lithos\/Devices .*Obsidian Sync carries the folder only with “Sync all other types” on\./);
  expect(tab.find(`${me.name} (this device)`).desc).toMatch(/^This device · \d+ learned rows? · last change /);
  expect(tab.find('device 1').desc).toMatch(/^[1-9]\d* learned rows? · last change .*· merged here .+ ago$/);
});

test('"Sync learning with other devices now" runs one round and says what it took in, and from whom', async () => {
  const r = await ready();
  await ownDeviceInfo(r.app);
  expect(await run(r, 'sync-devices')).toMatch(/^Lithos: learning synced with other devices: published \d+ rows?; no other device has written to Lithos\/Devices yet\.$/);
  // The files arrive without Obsidian reporting them (a sync tool it did not see): the command takes them in.
  const d = await makeDevice(1, Object.keys(NOTES));
  const a = d.id('notes/beta.md');
  await d.store.stats.update(a, { use_count: d.store.stats.get(a).use_count + 2 });
  await d.replicator.sync();
  for (const [p, bytes] of d.folder.files) r.app.adapter.put(`Lithos/Devices/${p}`, bytes);
  expect(await run(r, 'sync-devices')).toMatch(/^Lithos: learning synced with other devices: published \d+ rows?; merged [1-9]\d* rows? from device 1\.$/);
  await eventually(() => (indexItem(r.p).attrs.get('aria-label') ?? '').startsWith('Learning from device 1'));
});
