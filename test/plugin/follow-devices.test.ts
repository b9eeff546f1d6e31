import type { EventRef, TFile } from 'obsidian';
import { ARRIVAL_QUIET_MS, followDevices } from '../../plugin/follow-devices';
import { ObsidianSyncFolder } from '../../plugin/obsidian-sync-folder';
import { POLL_MS } from '../../shared/replica/device-sync';
import { openHarness, type Harness } from '../engine/harness';
import { makeDevice, type SimDevice } from '../replica/devices-sim';
import { FakeApp } from './fake-obsidian';

/**
 * Spec: the plugin's engine takes in another device's learning a second after its files arrive in the devices
 * folder (Obsidian Sync, iCloud, Syncthing write them into the vault, and Obsidian reports them as vault
 * events), every minute without any event, and never because of its own writes. After every round the
 * status line says whose learning was merged last.
 */

const NOTES = { 'a.md': '# A\nAlpha.\n', 'notes/b.md': '# B\nBeta.\n' };
let h: Harness | null = null;
afterEach(async () => {
  await h?.engine.close();
  h = null;
});

interface Followed {
  app: FakeApp;
  h: Harness;
  lines: (string | null)[];
  refs: EventRef[];
  stop: () => void;
  rounds(): number;
  /** Resolves once every round already started (by a timer) has ended. */
  settled(): Promise<void>;
}

async function follow(o: { devicesFolder?: string | null } = {}): Promise<Followed> {
  const app = new FakeApp();
  const harness = (h = await openHarness(NOTES, { deps: { syncFolder: (f) => new ObsidianSyncFolder(app.adapter, f), deviceName: 'Obsidian on laptop' } }));
  if (o.devicesFolder !== undefined) {
    await harness.engine.close();
    await harness.blobs.writeAtomic('learning.json', new TextEncoder().encode(JSON.stringify({ devices: { folder: o.devicesFolder } })));
    h = await openHarness(NOTES, { blobs: harness.blobs, deps: { syncFolder: (f) => new ObsidianSyncFolder(app.adapter, f), deviceName: 'Obsidian on laptop' } });
  }
  const engine = (h).engine;
  (h).clock.advance(0);
  await engine.services.devices.sync(); // joins the round the engine starts at open
  const lines: (string | null)[] = [];
  const refs: EventRef[] = [];
  let rounds = 0;
  const stop = followDevices(engine.services.devices, app.vault, (ref) => refs.push(ref), (line) => {
    rounds++;
    lines.push(line);
  });
  rounds = 0; // the line shown when following starts is not a round
  return {
    app,
    h: h,
    lines,
    refs,
    stop,
    rounds: () => rounds,
    // A round is chained after any round under way: once it is done, so are the earlier ones.
    settled: async () => {
      await engine.services.devices.sync();
      rounds--; // this round itself is not one the events or the timer started
    },
  };
}

/** Another device that learned something about note a.md and wrote its files. */
async function otherDevice(): Promise<SimDevice> {
  const d = await makeDevice(1, Object.keys(NOTES));
  const a = d.id('a.md');
  await d.store.stats.update(a, { use_count: d.store.stats.get(a).use_count + 2 });
  await d.replicator.sync();
  return d;
}

/** The sync tool writes the other device's files into this vault, and Obsidian reports each one. */
function arrive(f: Followed, from: SimDevice, event: 'create' | 'modify' = 'create'): void {
  for (const [p, bytes] of from.folder.files) f.app.adapter.put(`Lithos/Devices/${p}`, bytes);
  f.app.vault.sync();
  for (const p of from.folder.files.keys()) f.app.vault.emit(event, f.app.vault.getAbstractFileByPath(`Lithos/Devices/${p}`) as TFile);
}

test("another device's files arriving are merged a second after the last event, and the status names it", async () => {
  const f = await follow();
  expect(f.lines).toEqual([null]); // no other device yet
  const other = await otherDevice();
  arrive(f, other);
  f.h.clock.advance(ARRIVAL_QUIET_MS - 1);
  await f.settled();
  expect(f.rounds()).toBe(0); // a burst of files: one round once they stop coming
  f.h.clock.advance(1);
  await f.settled();
  expect(f.rounds()).toBe(1);
  expect(f.lines.at(-1)).toMatch(/^Learning from device 1 merged .+ ago$/);
  const merged = f.h.engine.services.devices.report().devices.find((d) => d.name === 'device 1');
  expect(merged?.this_device).toBe(false);
  expect(merged?.rows).toBeGreaterThan(0);
  expect(merged?.merged_at).not.toBeNull();
});

test("a file renamed into the devices folder (a sync tool's temporary name) starts a round too", async () => {
  const f = await follow();
  const other = await otherDevice();
  for (const [p, bytes] of other.folder.files) f.app.adapter.put(`Lithos/Devices/${p}`, bytes);
  f.app.vault.sync();
  const [first] = other.folder.files.keys();
  f.app.vault.emit('rename', f.app.vault.getAbstractFileByPath(`Lithos/Devices/${first}`) as TFile, `Lithos/Devices/.syncthing.${first}.tmp`);
  f.h.clock.advance(ARRIVAL_QUIET_MS);
  await f.settled();
  expect(f.rounds()).toBe(1);
  expect(f.lines.at(-1)).toMatch(/^Learning from device 1 merged/);
});

test("this device's own files, and notes outside the devices folder, start no round", async () => {
  const f = await follow();
  const me = f.h.engine.services.devices.report().devices.find((d) => d.this_device)?.device as string;
  f.app.adapter.put(`Lithos/Devices/${me}/000001.jsonl`, '{}\n');
  f.app.adapter.put('Lithos/Devices.md', '# not the folder\n');
  f.app.vault.sync();
  f.app.vault.emit('modify', f.app.vault.getAbstractFileByPath(`Lithos/Devices/${me}/000001.jsonl`) as TFile);
  f.app.vault.emit('modify', f.app.vault.getAbstractFileByPath('Lithos/Devices.md') as TFile);
  f.h.clock.advance(ARRIVAL_QUIET_MS);
  await f.settled();
  expect(f.rounds()).toBe(0);
});

test('with no event at all, a round every minute still takes in what arrived', async () => {
  const f = await follow();
  const other = await otherDevice();
  for (const [p, bytes] of other.folder.files) f.app.adapter.put(`Lithos/Devices/${p}`, bytes); // no vault event
  f.h.clock.advance(POLL_MS);
  await f.settled();
  expect(f.rounds()).toBe(1);
  expect(f.lines.at(-1)).toMatch(/^Learning from device 1 merged/);
});

test('stopped (the engine closes): the vault listeners are detached and events start nothing', async () => {
  const f = await follow();
  expect(f.refs).toHaveLength(3); // create, modify, rename
  const listening = f.app.vault.listenerCount();
  f.stop();
  expect(f.app.vault.listenerCount()).toBe(listening - 3);
  arrive(f, await otherDevice(), 'modify');
  f.h.clock.advance(ARRIVAL_QUIET_MS);
  await new Promise((r) => setImmediate(r)); // a round started by the clock would have run on promises alone
  expect(f.h.engine.services.devices.report().devices.filter((d) => !d.this_device)).toEqual([]);
});

test('the exchange switched off (devices.folder null): no listener, no round, no status line', async () => {
  const f = await follow({ devicesFolder: null });
  expect(f.refs).toEqual([]);
  expect(f.lines).toEqual([null]);
  expect(f.app.adapter.files.size).toBe(0);
});
