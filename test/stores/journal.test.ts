import { Journal, parseJournal } from '../../shared/stores/journal';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { silentLogger } from '../../shared/ports';
import { GatedBlobStore, settle } from './helpers';

const enc = new TextEncoder();
type Op = { kind: string; n?: number };

describe('parseJournal', () => {
  it('reads complete lines in order', () => {
    const p = parseJournal<Op>(enc.encode('{"seq":1,"op":{"kind":"a"}}\n{"seq":2,"op":{"kind":"b","n":3}}\n'));
    expect(p).toEqual({ entries: [{ seq: 1, op: { kind: 'a' } }, { seq: 2, op: { kind: 'b', n: 3 } }], torn: false, badLines: 0 });
  });

  it('treats a last line without newline as torn, even if it happens to parse', () => {
    expect(parseJournal<Op>(enc.encode('{"seq":1,"op":{"kind":"a"}}\n{"seq":2,"op":{"kind":"b"}}')).torn).toBe(true);
    const p = parseJournal<Op>(enc.encode('{"seq":1,"op":{"kind":"a"}}\n{"seq":2,"op":{"ki'));
    expect(p.entries.map((e) => e.seq)).toEqual([1]);
    expect(p.torn).toBe(true);
  });

  it('counts complete but unreadable lines separately, and accepts absent or empty input', () => {
    const p = parseJournal<Op>(enc.encode('garbage\n{"seq":"x","op":{}}\n{"seq":3,"op":{"kind":"c"}}\n\n'));
    expect(p.entries.map((e) => e.seq)).toEqual([3]);
    expect(p.badLines).toBe(2);
    expect(parseJournal(null)).toEqual({ entries: [], torn: false, badLines: 0 });
    expect(parseJournal(new Uint8Array(0))).toEqual({ entries: [], torn: false, badLines: 0 });
  });
});

describe('Journal', () => {
  it('commits one batch of hundreds of thousands of entries (a merge of a month of another device)', async () => {
    const blobs = new MemoryBlobStore();
    const j = new Journal<Op>(blobs, 'j', silentLogger);
    await Promise.all(Array.from({ length: 300_000 }, (_, i) => j.append(i + 1, { kind: 'a' })));
    expect(j.size()).toBe(300_000);
    expect(parseJournal<Op>(await blobs.read('j')).entries).toHaveLength(300_000);
  });

  it('appends made while another append is in flight are committed together', async () => {
    const blobs = new GatedBlobStore();
    const j = new Journal<Op>(blobs, 'j', silentLogger);
    const first = j.append(1, { kind: 'a' });
    await settle();
    const rest = [j.append(2, { kind: 'b' }), j.append(3, { kind: 'c' }), j.append(4, { kind: 'd' })];
    blobs.release();
    await Promise.all([first, ...rest]);
    expect(blobs.appends).toBe(2);
    expect(parseJournal<Op>(blobs.files.get('j') ?? null).entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('truncation waits for in-flight appends and keeps entries newer than the snapshot', async () => {
    const blobs = new GatedBlobStore();
    blobs.gated = false;
    const j = new Journal<Op>(blobs, 'j', silentLogger);
    await Promise.all([j.append(1, { kind: 'a' }), j.append(2, { kind: 'b' })]);
    blobs.gated = true;
    const late = j.append(3, { kind: 'c' });
    const cut = j.truncateThrough(2);
    await settle();
    blobs.release();
    await Promise.all([late, cut]);
    expect(parseJournal<Op>(blobs.files.get('j') ?? null).entries.map((e) => e.seq)).toEqual([3]);
    expect(j.size()).toBe(1);
  });

  it('removes the file when a snapshot covers everything, and does nothing when there is nothing to drop', async () => {
    const blobs = new MemoryBlobStore();
    const j = new Journal<Op>(blobs, 'j', silentLogger);
    await j.append(1, { kind: 'a' });
    await j.truncateThrough(1);
    expect(blobs.files.has('j')).toBe(false);
    const writesBefore = blobs.writes;
    await j.truncateThrough(5);
    expect(blobs.writes).toBe(writesBefore);
  });

  it('a failed append rejects its waiters and does not count as durable', async () => {
    const blobs = new MemoryBlobStore();
    blobs.append = async () => {
      throw new Error('disk full');
    };
    const j = new Journal<Op>(blobs, 'j', silentLogger);
    await expect(j.append(1, { kind: 'a' })).rejects.toThrow('disk full');
    expect(j.size()).toBe(0);
  });
});
