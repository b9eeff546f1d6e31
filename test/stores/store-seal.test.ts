import { MemoryStore } from '../../shared/stores/memory-store';
import { MEMORY_SCHEMA } from '../../shared/stores/schema';
import { openStoreDb } from '../../shared/stores/sqlite';
import { env } from './helpers';

async function snapshotted() {
  const e = await env();
  const { store } = await MemoryStore.open(e);
  await store.nodes.register({ node_id: 'n1', path: 'a.md', id_source: 'registry', content_hash: 'h' });
  await store.close();
  return e.blobs;
}

describe('store seals', () => {
  it('each snapshot is sealed, and bytes matching their seal open without the full integrity check', async () => {
    const blobs = await snapshotted();
    expect(await blobs.list()).toContain('memory.sqlite.seal');
    const opened = await openStoreDb(await env(blobs), MEMORY_SCHEMA);
    expect(opened).toMatchObject({ state: 'loaded', check: 'sealed' });
  });

  it('bytes that differ from the seal (or a missing or unreadable seal) get the full check', async () => {
    for (const change of [
      (b: Awaited<ReturnType<typeof snapshotted>>) => b.files.delete('memory.sqlite.seal'),
      (b: Awaited<ReturnType<typeof snapshotted>>) => b.files.set('memory.sqlite.seal', new TextEncoder().encode('{not json')),
      (b: Awaited<ReturnType<typeof snapshotted>>) => b.files.set('memory.sqlite.seal', new TextEncoder().encode('{"size":1,"checksum":2}')),
    ]) {
      const blobs = await snapshotted();
      change(blobs);
      expect(await openStoreDb(await env(blobs), MEMORY_SCHEMA)).toMatchObject({ state: 'loaded', check: 'full' });
    }
  });

  it('a damaged file never passes for sealed: it is found by the full check and set aside', async () => {
    const blobs = await snapshotted();
    const bytes = blobs.files.get('memory.sqlite')!;
    bytes[bytes.length - 100] ^= 0xff; // one flipped byte deep in the file: the seal no longer matches
    const opened = await openStoreDb(await env(blobs), MEMORY_SCHEMA);
    expect(opened.check).not.toBe('sealed');
    // A fresh copy: depending on where the flipped byte lands (the tables' layout), the full check may
    // already have set the first one aside.
    const cut = await snapshotted();
    cut.truncate('memory.sqlite', 0.5);
    const { warnings } = await MemoryStore.open(await env(cut));
    expect(warnings[0]).toMatch(/^memory\.sqlite was damaged/);
  });
});
