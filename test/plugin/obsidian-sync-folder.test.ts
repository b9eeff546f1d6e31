import { CODECS } from '../../shared/replica/codecs';
import { NodeKeys } from '../../shared/replica/codec';
import type { MemoryOp } from '../../shared/stores/memory-types';
import fc from 'fast-check';
import { ObsidianSyncFolder } from '../../plugin/obsidian-sync-folder';
import { Replicator } from '../../shared/replica/replicator';
import { MemorySyncFolder } from '../twins/memory-sync-folder';
import { learnedState, makeDevice, type SimDevice } from '../replica/devices-sim';
import { CrashError, FakeAdapter } from './fake-obsidian';

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytes = (s: string): Uint8Array => enc.encode(s);
const text = (b: Uint8Array | null): string | null => (b ? dec.decode(b) : null);
const ROOT = 'Lithos/Devices';

describe('ObsidianSyncFolder (the devices folder over app.vault.adapter, desktop and mobile alike)', () => {
  test('a missing folder (nothing synced yet) lists nothing and reads null; the first write makes its parents', async () => {
    const adapter = new FakeAdapter();
    const folder = new ObsidianSyncFolder(adapter, ROOT);
    expect(await folder.list()).toEqual([]);
    expect(await folder.read('aaaaaaaaaaaaaaaa/device.json')).toBeNull();
    await folder.writeAtomic('aaaaaaaaaaaaaaaa/device.json', bytes('{"name":"laptop"}\n'));
    expect(adapter.folders.has('Lithos')).toBe(true);
    expect(adapter.folders.has('Lithos/Devices/aaaaaaaaaaaaaaaa')).toBe(true);
    expect(adapter.text('Lithos/Devices/aaaaaaaaaaaaaaaa/device.json')).toBe('{"name":"laptop"}\n');
  });

  test('append creates the segment, then grows it; list gives the size after every append', async () => {
    const adapter = new FakeAdapter();
    const folder = new ObsidianSyncFolder(adapter, ROOT);
    const seg = 'aaaaaaaaaaaaaaaa/000001.jsonl';
    await folder.append(seg, bytes('{"h":"1"}\n'));
    expect(await folder.list()).toEqual([{ path: seg, size: 10 }]);
    await folder.append(seg, bytes('{"h":"22"}\n'));
    expect(await folder.list()).toEqual([{ path: seg, size: 21 }]);
    expect(text(await folder.read(seg))).toBe('{"h":"1"}\n{"h":"22"}\n');
  });

  test('on Obsidian < 1.12.3 (no appendBinary) an append is an atomic rewrite: the old or the longer file, never a mix', async () => {
    const adapter = new FakeAdapter();
    adapter.appendBinary = undefined;
    const folder = new ObsidianSyncFolder(adapter, ROOT);
    await folder.append('d/1.jsonl', bytes('one\n'));
    await folder.append('d/1.jsonl', bytes('two\n'));
    expect(await folder.list()).toEqual([{ path: 'd/1.jsonl', size: 8 }]);
    adapter.crashAfter(2);
    await expect(folder.append('d/1.jsonl', bytes('three\n'))).rejects.toBeInstanceOf(CrashError);
    adapter.restart();
    const after = new ObsidianSyncFolder(adapter, ROOT);
    const got = text(await after.read('d/1.jsonl'));
    expect(['one\ntwo\n', 'one\ntwo\nthree\n']).toContain(got);
    expect(await after.list()).toEqual([{ path: 'd/1.jsonl', size: enc.encode(got ?? '').byteLength }]);
  });

  test('lists every device folder recursively with sizes, conflict copies included, and nothing outside the folder', async () => {
    const adapter = new FakeAdapter();
    adapter.put('Lithos/Devices/aaaaaaaaaaaaaaaa/000001.jsonl', 'abc\n');
    adapter.put('Lithos/Devices/bbbbbbbbbbbbbbbb/000001 (conflict 2026-11-27 101010).jsonl', 'conflict\n');
    adapter.put('Lithos/Devices/bbbbbbbbbbbbbbbb/device.json', '{}');
    adapter.put('Lithos/Other.md', 'a note');
    adapter.put('.lithos/memory.sqlite', 'db');
    const listed = await new ObsidianSyncFolder(adapter, ROOT).list();
    expect(listed.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: 'aaaaaaaaaaaaaaaa/000001.jsonl', size: 4 },
      { path: 'bbbbbbbbbbbbbbbb/000001 (conflict 2026-11-27 101010).jsonl', size: 9 },
      { path: 'bbbbbbbbbbbbbbbb/device.json', size: 2 },
    ]);
  });

  test('a write that crashed after its commit point counts with its new bytes and size; a half-written temp file is not listed', async () => {
    const adapter = new FakeAdapter();
    adapter.put('Lithos/Devices/d/device.json', 'old');
    adapter.put('Lithos/Devices/d/device.json.new', 'newer bytes');
    adapter.put('Lithos/Devices/d/000002.jsonl.tmp', 'hal');
    const folder = new ObsidianSyncFolder(adapter, ROOT);
    expect(await folder.list()).toEqual([{ path: 'd/device.json', size: 11 }]);
    expect(text(await folder.read('d/device.json'))).toBe('newer bytes');
  });

  test('remove deletes a file; removing one that is already gone (a sync tool got there first) is fine', async () => {
    const adapter = new FakeAdapter();
    const folder = new ObsidianSyncFolder(adapter, ROOT);
    await folder.writeAtomic('d/000001.jsonl', bytes('x\n'));
    await folder.remove('d/000001.jsonl');
    await folder.remove('d/000001.jsonl');
    expect(await folder.list()).toEqual([]);
  });

  test('a path that climbs out of the devices folder is refused before anything is written', async () => {
    const adapter = new FakeAdapter();
    const folder = new ObsidianSyncFolder(adapter, ROOT);
    await expect(folder.writeAtomic('../../note.md', bytes('x'))).rejects.toMatchObject({ code: 'path_outside_vault' });
    expect(adapter.files.size).toBe(0);
  });

  test('behaves like the in-memory twin of a synced folder for any sequence of appends, writes and removes', async () => {
    const names = fc.constantFrom('a/000001.jsonl', 'a/000002.jsonl', 'a/device.json', 'b/000001.jsonl');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), path: names, data: fc.string({ minLength: 1, maxLength: 12 }) }),
      fc.record({ kind: fc.constant('write' as const), path: names, data: fc.string({ maxLength: 12 }) }),
      fc.record({ kind: fc.constant('remove' as const), path: names, data: fc.constant('') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), fc.boolean(), async (ops, oldApp) => {
        const adapter = new FakeAdapter();
        if (oldApp) adapter.appendBinary = undefined;
        const real = new ObsidianSyncFolder(adapter, ROOT);
        const twin = new MemorySyncFolder();
        for (const o of ops) {
          for (const f of [real, twin]) {
            if (o.kind === 'append') await f.append(o.path, bytes(o.data));
            else if (o.kind === 'write') await f.writeAtomic(o.path, bytes(o.data));
            else await f.remove(o.path);
          }
        }
        const sorted = (l: { path: string; size: number }[]): { path: string; size: number }[] => [...l].sort((a, b) => (a.path < b.path ? -1 : 1));
        expect(sorted(await real.list())).toEqual(sorted(await twin.list()));
        for (const { path } of await twin.list()) expect(text(await real.read(path))).toBe(text(await twin.read(path)));
      }),
      { numRuns: 60 },
    );
  });

  test('two devices whose vaults a sync tool keeps in step end with the same learned state through their Obsidian adapters', async () => {
    // Each device its own vault disk; the "sync tool" copies the devices folder across between rounds.
    const devices: { sim: SimDevice; adapter: FakeAdapter; replicator: Replicator<MemoryOp> }[] = [];
    for (const i of [0, 1]) {
      const sim = await makeDevice(i);
      sim.replicator.stop(); // the sim's own in-memory folder is not used here
      const adapter = new FakeAdapter();
      sim.tasks.stop();
      const device = { fingerprint: sim.fp, tag: sim.fp.slice(0, 4), name: `Obsidian ${i}`, created: '2026-11-27T00:00:00.000Z' };
      const replicator = new Replicator({ host: sim.store, codecs: CODECS, nodes: new NodeKeys(sim.store.nodes), folder: new ObsidianSyncFolder(adapter, ROOT), device, clock: sim.clock, logger: { debug() {}, info() {}, warn() {}, error() {} } });
      devices.push({ sim, adapter, replicator });
    }
    const before = devices[0].sim.store.stats.get(devices[0].sim.id('a.md')).use_count;
    for (const [i, d] of devices.entries()) {
      const a = d.sim.id('a.md');
      await d.sim.store.stats.update(a, { use_count: d.sim.store.stats.get(a).use_count + 1 + i });
      await d.replicator.sync();
    }
    const carry = (from: FakeAdapter, to: FakeAdapter): void => {
      for (const [p, f] of from.files) if (p.startsWith(`${ROOT}/`)) to.put(p, f.bytes);
    };
    carry(devices[0].adapter, devices[1].adapter);
    carry(devices[1].adapter, devices[0].adapter);
    const [r0, r1] = [await devices[0].replicator.sync(), await devices[1].replicator.sync()];
    expect(r0.from.map((f) => f.name)).toEqual(['Obsidian 1']);
    expect(r1.from.map((f) => f.name)).toEqual(['Obsidian 0']);
    expect(learnedState(devices[0].sim)).toEqual(learnedState(devices[1].sim));
    // Both devices' feedback is in the merged row: 1 use on device 0, 2 on device 1.
    expect(devices[0].sim.store.stats.get(devices[0].sim.id('a.md')).use_count).toBe(before + 3);
  });
});
