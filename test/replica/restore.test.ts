import { carryAll, learnedState, makeDevice, NOTE_PATHS } from './devices-sim';

/** Spec (issue 22): what a device restores, or never had, costs no other device's learning. */

async function use(d: Awaited<ReturnType<typeof makeDevice>>, path: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await d.store.stats.update(d.id(path), { use_count: d.store.stats.get(d.id(path)).use_count + 1 });
}

describe('restoring an old backup of one device\'s files', () => {
  it('loses nothing another device had contributed, and the device writes its own lines again', async () => {
    const [a, b] = [await makeDevice(0), await makeDevice(1)];
    await use(a, 'a.md', 2);
    await a.replicator.sync();
    const backup = new Map([...a.folder.files].map(([p, v]) => [p, v.slice()]));
    await use(a, 'a.md', 3);
    await use(b, 'c.md', 4);
    await a.replicator.sync();
    await b.replicator.sync();
    carryAll([a, b]);
    await a.replicator.sync();
    await b.replicator.sync();
    // a's folder goes back to the backup (and travels so): b's copy of a's files is the old one too
    for (const f of [a.folder, b.folder]) {
      for (const p of [...f.files.keys()]) if (p.startsWith(`${a.fp}/`)) f.files.delete(p);
      for (const [p, v] of backup) f.files.set(p, v.slice());
    }
    await b.replicator.sync();
    expect(b.store.stats.get(b.id('a.md')).use_count).toBe(5); // b keeps the newer shares it had
    expect(b.store.stats.get(b.id('c.md')).use_count).toBe(4);
    await a.replicator.sync(); // a sees its files are older than what it published: writes them again
    const c = await makeDevice(2);
    c.folder.files.clear();
    for (const [p, v] of a.folder.files) c.folder.files.set(p, v.slice());
    for (const [p, v] of b.folder.files) if (p.startsWith(`${b.fp}/`)) c.folder.files.set(p, v.slice());
    await c.replicator.sync();
    expect(c.store.stats.get(c.id('a.md')).use_count).toBe(5);
    expect(c.store.stats.get(c.id('c.md')).use_count).toBe(4);
    expect(learnedState(c)).toEqual(learnedState(b));
  });

  it('a device whose memory.sqlite is lost gets its own and the others\' learning back from the files', async () => {
    const [a, b] = [await makeDevice(0), await makeDevice(1)];
    await use(a, 'a.md', 2);
    await use(b, 'notes/b.md', 3);
    await a.replicator.sync();
    await b.replicator.sync();
    carryAll([a, b]);
    // a new install on a's machine: a fresh store, the same device and the same folder
    const fresh = await makeDevice(0);
    for (const [p, v] of a.folder.files) fresh.folder.files.set(p, v.slice());
    await fresh.replicator.sync();
    expect(fresh.store.stats.get(fresh.id('a.md')).use_count).toBe(2);
    expect(fresh.store.stats.get(fresh.id('notes/b.md')).use_count).toBe(3);
  });
});

describe('a note not synced to a device yet', () => {
  it('keeps the learning about it pending and applies it when the note arrives', async () => {
    const a = await makeDevice(0);
    const b = await makeDevice(1, NOTE_PATHS.slice(0, 2)); // c.md has not reached b
    await use(a, 'c.md', 2);
    await a.replicator.sync();
    carryAll([a, b]);
    const first = await b.replicator.sync();
    expect(first.pending).toBe(1);
    await b.store.nodes.register({ node_id: crypto.randomUUID(), path: 'c.md', id_source: 'registry', content_hash: 'h-c.md' });
    const second = await b.replicator.sync();
    expect(second.pending).toBe(0);
    expect(b.store.stats.get(b.id('c.md')).use_count).toBe(2);
  });

  it('reads a half-written last line later, once whole', async () => {
    const [a, b] = [await makeDevice(0), await makeDevice(1)];
    await use(a, 'a.md', 1);
    await a.replicator.sync();
    const path = [...a.folder.files.keys()].find((p) => p.endsWith('.jsonl')) as string;
    const bytes = a.folder.files.get(path) as Uint8Array;
    b.folder.files.set(path, bytes.slice(0, bytes.byteLength - 5));
    const cut = await b.replicator.sync();
    expect(cut.torn).toBe(1);
    expect(b.store.stats.get(b.id('a.md')).use_count).toBe(0);
    b.folder.files.set(path, bytes.slice());
    await b.replicator.sync();
    expect(b.store.stats.get(b.id('a.md')).use_count).toBe(1);
  });
});

describe('the trust boundary', () => {
  it('an agent\'s edit on one device is the agent\'s on the others; a note only the person wrote does not travel', async () => {
    const [a, b] = [await makeDevice(0), await makeDevice(1)];
    await a.store.editors.set({ node_id: a.id('c.md'), creator_kind: 'person', editor_kind: 'agent', editor: 'scout-7', fingerprint: 'f1', at: 1 });
    await a.store.editors.set({ node_id: a.id('d.md'), creator_kind: 'person', editor_kind: 'person', editor: null, fingerprint: 'f2', at: 1 });
    await a.replicator.sync();
    carryAll([a, b]);
    await b.replicator.sync();
    expect(b.store.editors.get(b.id('c.md'))).toEqual(expect.objectContaining({ editor_kind: 'agent', editor: 'scout-7', fingerprint: 'f1' }));
    expect(b.store.editors.get(b.id('d.md'))).toBeNull();
  });
});

describe('a memory.sqlite restored from an older backup', () => {
  it('takes this device\'s newer shares back from its own files', async () => {
    const a = await makeDevice(0);
    await use(a, 'a.md', 2);
    await a.replicator.sync();
    await a.store.flush();
    const backup = new Map([...a.blobs.files].map(([p, v]) => [p, v.slice()]));
    await use(a, 'a.md', 3);
    await a.replicator.sync();
    const restoredBlobs = new (a.blobs.constructor as new () => typeof a.blobs)();
    for (const [p, v] of backup) restoredBlobs.files.set(p, v);
    const restored = await makeDevice(0, NOTE_PATHS, restoredBlobs);
    expect(restored.store.stats.get(restored.id('a.md')).use_count).toBe(2);
    for (const [p, v] of a.folder.files) restored.folder.files.set(p, v.slice());
    await restored.replicator.sync();
    expect(restored.store.stats.get(restored.id('a.md')).use_count).toBe(5);
  });
});
