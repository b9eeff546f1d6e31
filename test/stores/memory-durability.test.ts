import { MemoryStore, MEMORY_JOURNAL, MEMORY_PREVIOUS } from '../../shared/stores/memory-store';
import { parseJournal } from '../../shared/stores/journal';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { env, settle, GatedBlobStore, FailingBlobStore } from './helpers';

const A = 'node-a';
const B = 'node-b';
const enc = new TextEncoder();
const UNSAVED = `${MEMORY_JOURNAL}.unsaved`;

async function seed(store: MemoryStore, at: number): Promise<void> {
  await store.nodes.register({ node_id: A, path: 'a.md', id_source: 'registry', content_hash: 'ha' });
  await store.nodes.register({ node_id: B, path: 'b.md', id_source: 'frontmatter', content_hash: 'hb' });
  await store.edges.upsert({
    from_id: A, to_id: B, type: 'derived_from', weight: 1, namespace: 'ns', provenance_actor: 'rule:links',
    provenance_type: 'rule', evidence: ['[[b]]'], conflict_state: null,
  });
  await store.stats.update(B, { retrieval_count: 2, last_retrieved_at: at });
  await store.coactivation.bump(A, B, 'ns', at);
  await store.coactivation.bump(B, A, 'ns', at + 1);
}

/** Everything the store holds, for comparing a store with its reopened self. */
function dump(store: MemoryStore) {
  return {
    live: store.nodes.live(),
    tombs: store.nodes.tombstones(),
    edges: store.edges.find({}),
    stats: [store.stats.get(A), store.stats.get(B)],
    coact: store.coactivation.of(A),
    counts: store.counts(),
  };
}

describe('MemoryStore durability', () => {
  it('restores everything after a clean close and restart', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    await seed(store, e.clock.now());
    await store.nodes.tombstone(A, e.clock.now());
    const before = dump(store);
    await store.close();

    const { store: again, warnings } = await MemoryStore.open(await env(e.blobs.clone()));
    expect(warnings).toEqual([]);
    expect(dump(again)).toEqual(before);
    expect(before.counts).toEqual({ nodes: 1, tombstones: 1, edges: 1, stats: 1, coactivation: 1 });
  });

  it('a mutation resolves only once its journal line is appended', async () => {
    const blobs = new GatedBlobStore();
    const e = await env(blobs);
    const { store } = await MemoryStore.open(e);
    let done = false;
    const p = store.nodes.register({ node_id: A, path: 'a.md', id_source: 'registry', content_hash: null }).then(() => (done = true));
    await settle();
    expect(done).toBe(false);
    expect(store.nodes.byId(A)?.path).toBe('a.md'); // reads see the change at once
    expect(blobs.files.has(MEMORY_JOURNAL)).toBe(false);
    blobs.release();
    await p;
    expect(done).toBe(true);
    expect(parseJournal(blobs.files.get(MEMORY_JOURNAL) ?? null).entries).toHaveLength(1);
  });

  it('mutations issued in the same tick share one append (group commit)', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    await Promise.all([
      store.nodes.register({ node_id: A, path: 'a.md', id_source: 'registry', content_hash: null }),
      store.nodes.register({ node_id: B, path: 'b.md', id_source: 'registry', content_hash: null }),
      store.coactivation.bump(A, B, 'ns', 5),
    ]);
    expect(e.blobs.appends).toBe(1);
    expect(parseJournal(e.blobs.files.get(MEMORY_JOURNAL) ?? null).entries.map((x) => x.seq)).toEqual([1, 2, 3]);
  });

  it('loses no acknowledged mutation when the process dies before the debounced snapshot', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    await seed(store, e.clock.now());
    const before = dump(store);
    expect(e.blobs.files.has('memory.sqlite')).toBe(false); // no snapshot yet: only the journal holds the data

    const crashed = e.blobs.clone();
    const { store: again, warnings } = await MemoryStore.open(await env(crashed));
    expect(warnings).toEqual([]);
    expect(dump(again)).toEqual(before);
  });

  it('replays only the journal lines newer than the snapshot', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    await seed(store, e.clock.now());
    await store.flush();
    await store.coactivation.bump(A, B, 'ns', 99); // after the snapshot: journal only
    await store.stats.update(A, { salience: 0.9 });
    const before = dump(store);
    expect(store.journalSize()).toBe(8); // kept back to the previous snapshot: with none yet, all of it

    const { store: again } = await MemoryStore.open(await env(e.blobs.clone()));
    expect(dump(again)).toEqual(before);
    expect(again.coactivation.of(A)[0].count).toBe(3);
  });

  it('a crash after the snapshot but before the journal is truncated does not apply anything twice', async () => {
    const blobs = new FailingBlobStore();
    const e = await env(blobs);
    const { store } = await MemoryStore.open(e);
    await seed(store, e.clock.now());
    await store.flush(); // the first snapshot: the journal is kept whole (there is no previous one yet)
    await store.coactivation.bump(A, B, 'ns', 99);
    const before = dump(store);
    // The second snapshot may drop what the first holds: the process dies right before it does.
    blobs.failRemove.add(MEMORY_JOURNAL);
    blobs.failWrite.add(MEMORY_JOURNAL);
    await expect(store.flush()).rejects.toThrow('simulated crash');
    expect(blobs.files.has('memory.sqlite')).toBe(true);
    expect(parseJournal(blobs.files.get(MEMORY_JOURNAL) ?? null).entries.length).toBeGreaterThan(0);

    const { store: again, warnings } = await MemoryStore.open(await env(blobs.clone()));
    expect(warnings).toEqual([]);
    expect(dump(again)).toEqual(before);
    expect(again.coactivation.of(A)[0].count).toBe(3); // not 5
  });

  it('a crash while writing the snapshot leaves the previous snapshot plus the whole journal', async () => {
    const blobs = new FailingBlobStore();
    const e = await env(blobs);
    const { store } = await MemoryStore.open(e);
    await seed(store, e.clock.now());
    blobs.failWrite.add('memory.sqlite');
    await expect(store.flush()).rejects.toThrow('simulated crash');
    const { store: again } = await MemoryStore.open(await env(blobs.clone()));
    expect(dump(again)).toEqual(dump(store));
  });

  it('ignores a torn last journal line with a warning, and keeps appending cleanly afterwards', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    await seed(store, e.clock.now());
    const before = dump(store);
    const crashed = e.blobs.clone();
    await crashed.append(MEMORY_JOURNAL, enc.encode('{"seq":99,"op":{"kind":"node","row":{"node_id":"half'));

    const e2 = await env(crashed);
    const { store: again, warnings } = await MemoryStore.open(e2);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/memory\.journal ended with an incomplete entry/);
    // With no snapshot yet, the journal was the only copy: a cut there could have lost more, so it is said.
    expect(warnings[1]).toMatch(/^memory\.journal was the only copy of recent changes and is damaged: changes after #6 may be lost/);
    expect(e2.logger.at('warn')).toContain(warnings[0]);
    expect(dump(again)).toEqual(before);
    expect(again.nodes.byId('half')).toBeNull();

    // The torn bytes are gone, so the next append starts on a fresh line.
    await again.nodes.register({ node_id: 'later', path: 'later.md', id_source: 'registry', content_hash: null });
    const third = await MemoryStore.open(await env(crashed.clone()));
    expect(third.warnings).toEqual([]);
    expect(third.store.nodes.byId('later')?.path).toBe('later.md');
    expect(third.store.counts().nodes).toBe(3);
  });

  it('flush writes the snapshot, keeps the one before as .prev and the journal back to it', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    await seed(store, e.clock.now());
    expect(e.blobs.files.get(MEMORY_JOURNAL)?.byteLength).toBeGreaterThan(0);
    expect(e.blobs.files.has(UNSAVED)).toBe(true); // the journal holds what no snapshot has
    await store.flush();
    expect(e.blobs.files.has('memory.sqlite')).toBe(true);
    expect(e.blobs.files.has(UNSAVED)).toBe(false);
    expect(store.journalSize()).toBe(6); // no previous snapshot yet: the journal is the only way back
    await store.stats.update(A, { salience: 0.7 });
    await store.flush();
    expect(e.blobs.files.has(MEMORY_PREVIOUS)).toBe(true);
    expect(parseJournal(e.blobs.files.get(MEMORY_JOURNAL) ?? null).entries.map((x) => x.seq)).toEqual([7]);

    // The snapshot alone restores everything.
    const { store: again } = await MemoryStore.open(await env(e.blobs.clone()));
    expect(dump(again)).toEqual(dump(store));
  });

  it('debounce coalesces many writes into one snapshot', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    for (let i = 0; i < 50; i++) await store.stats.update(A, { retrieval_count: i });
    await settle();
    expect(e.blobs.writes).toBe(1); // the unsaved marker, once

    e.clock.advance(1999);
    await settle();
    expect(e.blobs.writes).toBe(1);
    e.clock.advance(1);
    await settle();
    expect(e.blobs.writes).toBe(3); // one snapshot: the file and its seal
    expect(e.blobs.files.has(UNSAVED)).toBe(false);
    expect(e.clock.pendingCount()).toBe(0);
    const { store: again } = await MemoryStore.open(await env(e.blobs.clone()));
    expect(again.stats.get(A).retrieval_count).toBe(49);
  });

  it('each write restarts the quiet period, but a steady stream still snapshots within five periods', async () => {
    const e = await env(new MemoryBlobStore());
    const { store } = await MemoryStore.open({ ...e, debounceMs: 1000 });
    for (let i = 0; i < 6; i++) {
      if (i > 0) e.clock.advance(900); // t = 0, 900, ..., 4,500: never 1,000 ms of quiet
      await store.stats.update(A, { retrieval_count: i });
      await settle();
    }
    expect(e.blobs.writes).toBe(1); // the unsaved marker
    e.clock.advance(499);
    await settle();
    expect(e.blobs.writes).toBe(1);
    // t = 5,000: the first unsaved change has waited maxWait (5 × 1,000 ms).
    e.clock.advance(1);
    await settle();
    expect(e.blobs.writes).toBe(3); // one snapshot: the file and its seal
  });

  it('batch(): mutations resolve once applied, and the batch resolves once all of them are journaled', async () => {
    const blobs = new GatedBlobStore();
    const e = await env(blobs);
    const { store } = await MemoryStore.open(e);
    let finished = false;
    const run = store
      .batch(async () => {
        // Sequential awaits, as bulk indexing does: none waits for the (held) journal appends.
        for (let i = 0; i < 20; i++) await store.nodes.register({ node_id: `n${i}`, path: `${i}.md`, id_source: 'registry', content_hash: null });
        return 'done';
      })
      .then((v) => {
        finished = true;
        return v;
      });
    await settle();
    expect(store.counts().nodes).toBe(20);
    expect(finished).toBe(false);
    blobs.release();
    await expect(run).resolves.toBe('done');
    expect(parseJournal(blobs.files.get(MEMORY_JOURNAL) ?? null).entries).toHaveLength(20);
    expect(blobs.appends).toBeLessThan(20); // coalesced while the first append was held
  });

  it('batch() rejects when one of its journal appends fails', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    e.blobs.append = async () => {
      throw new Error('disk full');
    };
    await expect(
      store.batch(async () => {
        await store.nodes.register({ node_id: A, path: 'a.md', id_source: 'registry', content_hash: null });
      }),
    ).rejects.toThrow('disk full');
  });

  it('rejects use after close', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    await store.close();
    await expect(store.nodes.register({ node_id: A, path: 'a.md', id_source: 'registry', content_hash: null })).rejects.toMatchObject({
      code: 'internal',
    });
  });
});
