import type { MemoryOp } from '../../shared/stores/memory-types';
import { learnedReplicator } from '../../shared/replica/learned-replicator';
import { silentLogger } from '../../shared/ports';
import { type Replicator } from '../../shared/replica/replicator';
import { loadReadMarks, READ_KEY, saveReadMarks } from '../../shared/replica/read-marks';
import { carryAll, makeDevice, type SimDevice } from './devices-sim';

/**
 * Spec (issue 22): a device remembers how far it read each file of the devices folder, with its shares in
 * memory.sqlite, so the first round after an open reads only what grew while it was closed — not a month of
 * every device's lines again.
 */

async function use(d: SimDevice, path: string): Promise<void> {
  await d.store.stats.update(d.id(path), { use_count: d.store.stats.get(d.id(path)).use_count + 1 });
}

/** The same device opened again: a new Replicator over its store and folder (what an engine's open makes). */
function reopen(d: SimDevice): Replicator<MemoryOp> {
  d.replicator.stop();
  d.replicator = learnedReplicator(d.store, d.folder, d.replicator.device, d.clock, silentLogger);
  return d.replicator;
}

const segmentReads = (spy: jest.SpyInstance): string[] => spy.mock.calls.map((c) => String(c[0])).filter((p) => p.endsWith('.jsonl'));

describe('a reopened device', () => {
  it('reads no file that did not change while it was closed, and only the new part of one that grew', async () => {
    const [a, b] = [await makeDevice(0), await makeDevice(1)];
    await use(a, 'a.md');
    await use(b, 'c.md');
    await a.replicator.sync();
    await b.replicator.sync();
    carryAll([a, b]);
    await b.replicator.sync();
    const reads = jest.spyOn(b.folder, 'read');
    await reopen(b).sync();
    expect(segmentReads(reads)).toEqual([]);

    await use(a, 'a.md');
    await a.replicator.sync();
    carryAll([a, b]);
    reads.mockClear();
    const r = await reopen(b).sync();
    expect(segmentReads(reads)).toEqual([...a.folder.files.keys()].filter((p) => p.startsWith(`${a.fp}/`) && p.endsWith('.jsonl')));
    expect(r.from).toEqual([{ device: a.fp, name: 'device 0', lines: 1 }]);
    expect(b.store.stats.get(b.id('a.md')).use_count).toBe(2);
  });

  it('still writes its own lines again when an older copy of its files came back while it was closed', async () => {
    const a = await makeDevice(0);
    await use(a, 'a.md');
    await a.replicator.sync();
    const backup = new Map([...a.folder.files].map(([p, v]) => [p, v.slice()]));
    await use(a, 'd.md');
    await a.replicator.sync();
    for (const [p, v] of backup) a.folder.files.set(p, v.slice());
    await reopen(a).sync();
    const c = await makeDevice(2);
    for (const [p, v] of a.folder.files) c.folder.files.set(p, v.slice());
    await c.replicator.sync();
    expect(c.store.stats.get(c.id('d.md')).use_count).toBe(1);
    expect(c.store.stats.get(c.id('a.md')).use_count).toBe(1);
  });

  it('reads everything again when its marks were saved by a version that knew other tables', () => {
    const saved = saveReadMarks({ seen: new Map([['x/000001.jsonl', 120]]), own: new Map() });
    expect(loadReadMarks({ [READ_KEY]: saved }).seen.get('x/000001.jsonl')).toBe(120);
    expect(loadReadMarks({ [READ_KEY]: { ...saved, tables: 'stats,edge' } }).seen.size).toBe(0);
    expect(loadReadMarks({ [READ_KEY]: { tables: saved.tables, files: { 'x/000001.jsonl': [-3] } } }).seen.size).toBe(0);
  });
});
