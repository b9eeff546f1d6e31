import { MemoryStore, MEMORY_JOURNAL } from '../../shared/stores/memory-store';
import { CacheStore } from '../../shared/stores/cache-store';
import { cachePartFile } from '../../shared/stores/cache-codec';
import { SHARDS, shardOf } from '../../shared/stores/cache-tables';
import type { MemoryBlobStore } from '../twins/memory-blobs';
import { env } from './helpers';

const note = (path: string, node_id: string) => ({ path, node_id, content_hash: `h-${node_id}`, mtime: 1, size: 10, meta: '{"title":"t"}', indexed_at: 2 });

/** Both stores with some data, snapshotted, in one BlobStore. */
async function bothStores(): Promise<MemoryBlobStore> {
  const e = await env();
  const mem = (await MemoryStore.open(e)).store;
  for (let i = 0; i < 200; i++) {
    await mem.nodes.register({ node_id: `n${i}`, path: `notes/${i}.md`, id_source: 'registry', content_hash: `h${i}` });
  }
  await mem.stats.update('n1', { salience: 0.9 });
  const cache = (await CacheStore.open(e)).store;
  cache.transaction(() => {
    for (let i = 0; i < 200; i++) cache.putNote(note(`notes/${i}.md`, `n${i}`), [{ node_id: `n${i}`, chunk_index: 0, text: `chunk ${i} `.repeat(20), heading: null }]);
  });
  await mem.close();
  await cache.close();
  return e.blobs;
}

const garbage = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7919 + 13) % 251);

describe.each([
  ['truncated in the middle', (b: MemoryBlobStore, name: string) => b.truncate(name, 0.5), /damaged \(/, /damaged \(truncated or padded/],
  ['overwritten with garbage', (b: MemoryBlobStore, name: string) => b.files.set(name, garbage(8192)), /file is not a database/, /not a Lithos cache file/],
  ['empty', (b: MemoryBlobStore, name: string) => b.files.set(name, new Uint8Array(0)), /file is empty/, /file is empty/],
])('a store file %s', (_label, damage, reason, cacheReason) => {
  it('memory.sqlite: warns, keeps the damaged file aside, rebuilds it from the journal; cache.bin is unaffected', async () => {
    const blobs = await bothStores();
    damage(blobs, 'memory.sqlite');
    const damagedBytes = blobs.files.get('memory.sqlite');
    const e = await env(blobs);
    const mem = await MemoryStore.open(e);
    const cache = await CacheStore.open(e);

    expect(mem.warnings).toHaveLength(1);
    expect(mem.warnings[0]).toMatch(/^memory\.sqlite was damaged \(/);
    expect(mem.warnings[0]).toMatch(reason);
    // One snapshot so far, so the journal reaches back to the first change.
    expect(mem.warnings[0]).toMatch(
      /there is no memory\.sqlite\.prev; it was rebuilt from memory\.journal alone \(201 change\(s\)\); the journal reaches back to the first change, so nothing was lost; the damaged file is kept as memory\.sqlite\.corrupt-2026-01-01T00-00-00-000Z\./,
    );
    expect(blobs.files.get('memory.sqlite.corrupt-2026-01-01T00-00-00-000Z')).toEqual(damagedBytes);
    expect(mem.store.counts()).toEqual({ nodes: 200, tombstones: 0, edges: 0, stats: 1, coactivation: 0 });

    expect(cache.warnings).toEqual([]);
    expect(cache.rebuilt).toBe(false);
    expect(cache.store.counts()).toMatchObject({ notes: 200, chunks: 200 });

    // The fresh store works and replaces the damaged file at its next snapshot.
    await mem.store.nodes.register({ node_id: 'x', path: 'x.md', id_source: 'registry', content_hash: null });
    await mem.store.close();
    const again = await MemoryStore.open(await env(blobs.clone()));
    expect(again.warnings).toEqual([]);
    expect(again.store.nodes.byId('x')?.path).toBe('x.md');
  });

  it('a cache file: warns that its notes will be re-indexed, keeps it aside; the other cache files and memory.sqlite are unaffected', async () => {
    const blobs = await bothStores();
    const file = cachePartFile(3);
    damage(blobs, file);
    const damagedBytes = blobs.files.get(file);
    const e = await env(blobs);
    const cache = await CacheStore.open(e);
    const mem = await MemoryStore.open(e);

    expect(cache.rebuilt).toBe(true);
    expect(cache.warnings).toHaveLength(1);
    expect(cache.warnings[0]).toMatch(cacheReason);
    expect(cache.warnings[0]).toMatch(/^cache\.3\.bin was damaged \(.*\); its notes will be re-indexed from the Markdown; the damaged file is kept as cache\.3\.bin\.corrupt-/);
    expect(blobs.files.get('cache.3.bin.corrupt-2026-01-01T00-00-00-000Z')).toEqual(damagedBytes);
    const inShard3 = Array.from({ length: 200 }, (_, i) => `n${i}`).filter((id) => shardOf(id) === 3).length;
    expect(inShard3).toBeGreaterThan(0);
    expect(cache.store.counts()).toMatchObject({ notes: 200 - inShard3, chunks: 200 - inShard3 });

    expect(mem.warnings).toEqual([]);
    expect(mem.store.counts().nodes).toBe(200);
    expect(mem.store.stats.get('n1').salience).toBe(0.9);
  });
});

describe('an older copy of memory.sqlite', () => {
  it('restored from a backup: opened with a warning that names what the newer copy held and is lost', async () => {
    const e = await env();
    const first = (await MemoryStore.open(e)).store;
    await first.nodes.register({ node_id: 'n1', path: 'a.md', id_source: 'registry', content_hash: 'h1' });
    await first.close();
    const backup = e.blobs.files.get('memory.sqlite')!.slice();
    const second = (await MemoryStore.open(e)).store;
    await second.stats.update('n1', { salience: 0.9 });
    await second.coactivation.bump('n1', 'n2', 'ns', 7);
    await second.close();
    const later = (await MemoryStore.open(e)).store;
    await later.stats.update('n1', { use_count: 3 });
    await later.close(); // two snapshots later: the journal reaches back only to the second
    e.blobs.files.set('memory.sqlite', backup); // the person restores last week's copy
    const third = await MemoryStore.open(e);
    expect(third.warnings).toEqual([expect.stringMatching(/memory\.sqlite is an older copy than the one Lithos last saved .*2 learned change\(s\) that only the newer copy held are lost/)]);
    expect(third.losses).toEqual([{ file: 'memory.sqlite', counts: { lost_changes: 2 }, message: third.warnings[0] }]);
    // Ops are final row states: the later stats write carried the salience along; the co-activation is gone.
    expect(third.store.stats.get('n1')).toMatchObject({ salience: 0.9, use_count: 3 });
    expect(third.store.coactivation.of('n1')).toEqual([]);
    await third.store.close();
    // Once saved again, the copy is the newest: no warning at the next open.
    expect((await MemoryStore.open(e)).warnings).toEqual([]);
  });

  it('a copy as old as the previous snapshot loses nothing: the journal reaches back to it', async () => {
    const e = await env();
    const first = (await MemoryStore.open(e)).store;
    await first.nodes.register({ node_id: 'n1', path: 'a.md', id_source: 'registry', content_hash: 'h1' });
    await first.close();
    const backup = e.blobs.files.get('memory.sqlite')!.slice();
    const second = (await MemoryStore.open(e)).store;
    await second.stats.update('n1', { salience: 0.9 });
    await second.close();
    e.blobs.files.set('memory.sqlite', backup);
    const again = await MemoryStore.open(e);
    expect(again.warnings).toEqual([]);
    expect(again.store.stats.get('n1').salience).toBe(0.9);
    await again.store.close();
  });

  it('a crash between the snapshot and its seal (the file newer than the seal) is no older copy', async () => {
    const e = await env();
    const s1 = (await MemoryStore.open(e)).store;
    await s1.nodes.register({ node_id: 'n1', path: 'a.md', id_source: 'registry', content_hash: 'h1' });
    await s1.close();
    const oldSeal = e.blobs.files.get('memory.sqlite.seal')!.slice();
    const s2 = (await MemoryStore.open(e)).store;
    await s2.stats.update('n1', { salience: 0.9 });
    await s2.close();
    e.blobs.files.set('memory.sqlite.seal', oldSeal);
    const again = await MemoryStore.open(e);
    expect(again.warnings).toEqual([]);
    expect(again.store.stats.get('n1').salience).toBe(0.9);
    await again.store.close();
  });
});

describe('damaged stores, other cases', () => {
  it('missing files: both stores are created fresh, without warnings', async () => {
    const e = await env();
    const mem = await MemoryStore.open(e);
    const cache = await CacheStore.open(e);
    expect(mem.warnings).toEqual([]);
    expect(cache.warnings).toEqual([]);
    expect(cache.rebuilt).toBe(true);
    expect(await e.blobs.list()).toEqual([]);
  });

  it('a missing cache with a present memory store only rebuilds the cache', async () => {
    const blobs = await bothStores();
    for (let k = -1; k < SHARDS; k++) blobs.files.delete(cachePartFile(k));
    const e = await env(blobs);
    expect((await CacheStore.open(e)).rebuilt).toBe(true);
    expect((await MemoryStore.open(e)).store.counts().nodes).toBe(200);
  });

  it('after memory.sqlite is reset, the journal is still replayed onto the fresh store, and the warning says so', async () => {
    const blobs = await bothStores();
    const e = await env(blobs);
    const { store } = await MemoryStore.open(e);
    await store.stats.update('n2', { salience: 0.1 });
    await store.coactivation.bump('n1', 'n2', 'ns', 7);
    // Crash before the next snapshot, then the snapshot itself is found damaged.
    const crashed = blobs.clone();
    crashed.truncate('memory.sqlite', 0.3);
    const again = await MemoryStore.open(await env(crashed));
    expect(again.warnings[0]).toMatch(/rebuilt from memory\.journal alone \(203 change\(s\)\); the journal reaches back to the first change, so nothing was lost/);
    expect(again.store.stats.get('n2').salience).toBe(0.1);
    expect(again.store.coactivation.of('n1')).toEqual([{ other: 'n2', namespace: 'ns', count: 1, last_at: 7 }]);
  });

  it('a file that is a database but not this store is moved aside too', async () => {
    const blobs = await bothStores();
    const SQL = (await env()).sql;
    const other = new SQL.Database();
    other.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE notes (path TEXT);');
    blobs.files.set('memory.sqlite', other.export());
    other.close();
    const { warnings } = await MemoryStore.open(await env(blobs));
    expect(warnings[0]).toMatch(/missing tables: nodes, edges, node_stats, coactivation/);
  });

  it('a second damage in the same millisecond gets its own name, never overwriting the first', async () => {
    const blobs = await bothStores();
    blobs.files.set('memory.sqlite', garbage(4096));
    await MemoryStore.open(await env(blobs));
    blobs.files.set('memory.sqlite', garbage(2048));
    const { warnings } = await MemoryStore.open(await env(blobs));
    expect(warnings[0]).toMatch(/kept as memory\.sqlite\.corrupt-2026-01-01T00-00-00-000Z-2\./);
    expect(blobs.files.get('memory.sqlite.corrupt-2026-01-01T00-00-00-000Z')?.byteLength).toBe(4096);
    expect(blobs.files.get('memory.sqlite.corrupt-2026-01-01T00-00-00-000Z-2')?.byteLength).toBe(2048);
  });

  it('an unreadable line inside the journal is skipped with a warning; the lines around it are kept', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    await store.nodes.register({ node_id: 'a', path: 'a.md', id_source: 'registry', content_hash: null });
    await e.blobs.append(MEMORY_JOURNAL, new TextEncoder().encode('not json\n'));
    await store.nodes.register({ node_id: 'b', path: 'b.md', id_source: 'registry', content_hash: null });
    const again = await MemoryStore.open(await env(e.blobs.clone()));
    expect(again.warnings).toEqual([
      'memory.journal had 1 unreadable line(s); they were skipped.',
      expect.stringMatching(/^memory\.journal was the only copy of recent changes and is damaged: changes after #2 may be lost/),
    ]);
    expect(again.store.nodes.live().map((n) => n.node_id)).toEqual(['a', 'b']);
  });
});
