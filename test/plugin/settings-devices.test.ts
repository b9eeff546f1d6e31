/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
jest.mock('obsidian', () => jest.requireActual('./fake-obsidian-dom'), { virtual: true });

import { jsdomSql } from '../panels/mount';
import { devicesSection } from '../../plugin/settings-devices';
import { engineControls } from '../../plugin/engine-controls';
import type { MemoryEngine } from '../../shared/engine';
import { openHarness, type Harness } from '../engine/harness';
import { MemorySyncFolder } from '../twins/memory-sync-folder';
import { makeDevice } from '../replica/devices-sim';

/** Settings → Learning → Devices in jsdom: the devices folder and every device that wrote to it, as text. */

let h: Harness | null = null;
afterEach(async () => {
  await h?.engine.close();
  h = null;
  document.body.empty();
});

function render(engine: MemoryEngine | null): HTMLElement {
  const el = document.body.createDiv();
  devicesSection(el, engine && engineControls(engine.services));
  return el;
}

const rows = (el: HTMLElement): { name: string; desc: string }[] =>
  Array.from(el.querySelectorAll<HTMLElement>('.setting-item')).map((r) => ({
    name: r.querySelector('.setting-item-name')?.textContent ?? '',
    desc: r.querySelector('.setting-item-description')?.textContent ?? '',
  }));

test('memory not open: says the list comes when it opens', () => {
  expect(rows(render(null))).toEqual([{ name: 'Devices', desc: 'Open the memory first: the devices that share this vault’s learning are listed then.' }]);
});

test('exchange off (no devices folder): says learning stays on each device', async () => {
  h = await openHarness({}, { deps: { sql: await jsdomSql() } }); // a host without a devices folder
  expect(rows(render(h.engine))).toEqual([{ name: 'Devices', desc: 'Learning stays on each device: devices.folder in .lithos/learning.json is off (null).' }]);
});

test("lists this device and another, whose name (from the other device's file) is shown as text, never as markup", async () => {
  const folder = new MemorySyncFolder();
  h = await openHarness({ 'a.md': '# A\n' }, { deps: { sql: await jsdomSql(), syncFolder: () => folder, deviceName: 'Obsidian on laptop' } });
  const hostile = '<img src=x onerror="window.pwned=1">';
  const other = await makeDevice(1, ['elsewhere.md', 'a.md']);
  await other.store.stats.update(other.id('a.md'), { use_count: 1 });
  await other.replicator.sync();
  for (const [p, bytes] of other.folder.files) folder.files.set(p, bytes);
  folder.files.set(`${other.fp}/device.json`, new TextEncoder().encode(JSON.stringify({ tag: 'bbbb', name: hostile, created: '2026-11-27T00:00:00.000Z' })));
  await h.engine.services.devices.sync();
  const el = render(h.engine);
  const listed = rows(el);
  expect(listed[0].name).toBe('Devices');
  expect(listed[0].desc).toMatch(/^Each device writes what it learned into Lithos\/Devices and merges what the others wrote/);
  expect(listed.find((r) => r.name === 'Obsidian on laptop (this device)')?.desc).toMatch(/^This device · \d+ learned rows? · last change /);
  expect(listed.find((r) => r.name === hostile)?.desc).toMatch(/ · merged here .+ ago$/);
  expect(el.querySelector('img')).toBeNull();
});
