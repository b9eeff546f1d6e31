import { note, openHarness, paths } from './harness';

const ID_A = '0b6f3f0e-6c1a-4e0e-9a44-1f2b3c4d5e6f';

/** x/old.md with an edge to y.md and a retrieval count, the engine watching: what a move must carry along. */
async function noteWithHistory() {
  const h = await openHarness({ 'x/old.md': 'content about gardens', 'y.md': 'other' });
  await h.engine.reconcile();
  h.engine.startWatching();
  const id = h.engine.services.notes.note('x/old.md')!.nodeId;
  const other = h.engine.services.notes.note('y.md')!.nodeId;
  await h.engine.services.learning.memory.edges.upsert({ from_id: id, to_id: other, type: 'supports', weight: 0.7, namespace: 'x', provenance_actor: 'test', provenance_type: 'human', evidence: null, conflict_state: null });
  await h.engine.services.learning.memory.stats.update(id, { retrieval_count: 3 });
  return { h, id, other };
}

describe('engine sync with the vault', () => {
  test('a second reconcile over unchanged notes reads and indexes nothing', async () => {
    const h = await openHarness({
      'a.md': note({ title: 'Alpha' }, 'apples and pears'),
      'b.md': 'bananas',
    });
    const first = await h.engine.reconcile();
    expect(first).toMatchObject({ notes: 2, indexed: 2, unchanged: 0, removed: 0 });
    const second = await h.engine.reconcile();
    expect(second).toMatchObject({ notes: 2, indexed: 0, unchanged: 2 });
    expect(h.engine.stats().indexed_since_open).toBe(2);
  });

  test('a modify event is debounced per path, then re-indexes once', async () => {
    const h = await openHarness({ 'a.md': 'apples' });
    await h.engine.reconcile();
    h.engine.startWatching();
    await h.vault.write('a.md', 'cherries');
    await h.vault.write('a.md', 'cherries and plums');
    h.clock.advance(299);
    await h.engine.settle();
    expect(await paths(h.engine, 'plums')).toEqual(['a.md']);
    expect(await paths(h.engine, 'apples')).toEqual([]);
    expect(h.engine.stats().indexed_since_open).toBe(2);
  });

  test('settle also runs events that arrive while it waits (an echo of a write made while settling), and returns', async () => {
    const h = await openHarness({ 'a.md': 'apples' });
    await h.engine.reconcile();
    h.engine.startWatching();
    let echoed = false;
    const read = h.vault.readBytes.bind(h.vault);
    // While the sync reads a.md (inside settle's wait), another note is written, as the engine's own callouts do.
    h.vault.readBytes = async (p: string) => {
      if (p === 'a.md' && !echoed) {
        echoed = true;
        await h.vault.write('b.md', 'bananas written during settle');
      }
      return read(p);
    };
    await h.vault.write('a.md', 'cherries');
    await h.engine.settle(); // never advanced the clock: the second event must not wait for its debounce
    expect(echoed).toBe(true);
    expect(await paths(h.engine, 'bananas')).toEqual(['b.md']);
  });

  test('a rename seen as a create and a delete, the create first (as file watchers report it), keeps the id, edges and stats', async () => {
    const { h, id, other } = await noteWithHistory();
    await h.vault.write('z/new.md', 'content about gardens'); // the create event first…
    await h.vault.delete('x/old.md'); // …then the delete
    await h.engine.settle();
    expect(h.engine.services.notes.note('z/new.md')!.nodeId).toBe(id);
    expect(h.engine.services.notes.note('x/old.md')).toBeNull();
    expect(h.engine.services.learning.memory.edges.find({ from: id }).map((e) => e.to_id)).toEqual([other]);
    expect(h.engine.services.learning.memory.stats.get(id).retrieval_count).toBe(3);
    // A copy (the old file still there) is a new note, not a move.
    await h.vault.write('z/copy.md', 'content about gardens');
    await h.engine.settle();
    expect(h.engine.services.notes.note('z/copy.md')!.nodeId).not.toBe(id);
    expect(h.engine.services.notes.note('z/new.md')!.nodeId).toBe(id);
  });

  test('rename is a key move: id, edges and stats follow the note', async () => {
    const { h, id } = await noteWithHistory();
    await h.vault.rename('x/old.md', 'z/new.md');
    await h.engine.settle();
    const moved = h.engine.services.notes.note('z/new.md')!;
    expect(moved.nodeId).toBe(id);
    expect(h.engine.services.notes.note('x/old.md')).toBeNull();
    expect(h.engine.services.learning.memory.edges.find({ from: id })).toHaveLength(1);
    expect(h.engine.services.learning.memory.stats.get(id).retrieval_count).toBe(3);
    expect(moved.cached.meta.namespace).toBe('z');
    expect(await paths(h.engine, 'gardens')).toEqual(['z/new.md']);
  });

  test('a note renamed twice before the debounce fires ends up once, at the last path, with its id', async () => {
    const h = await openHarness({ 'a.md': 'twice renamed text' });
    await h.engine.reconcile();
    h.engine.startWatching();
    const id = h.engine.services.notes.note('a.md')!.nodeId;
    await h.vault.rename('a.md', 'b.md');
    await h.vault.rename('b.md', 'c.md');
    h.clock.advance(1000);
    await h.engine.settle();
    expect(h.engine.services.notes.notes().map((n) => n.path)).toEqual(['c.md']);
    expect(h.engine.services.notes.note('c.md')!.nodeId).toBe(id);
    expect(h.engine.services.learning.memory.nodes.tombstones()).toHaveLength(0);
  });

  test('delete tombstones the node; the same note coming back gets its id and signals back', async () => {
    const h = await openHarness({ 'a.md': note({ id: ID_A }, 'kept learning'), 'b.md': 'plain note without id' });
    await h.engine.reconcile();
    h.engine.startWatching();
    const plainId = h.engine.services.notes.note('b.md')!.nodeId;
    await h.engine.services.learning.memory.stats.update(ID_A, { salience: 0.9 });
    await h.vault.delete('a.md');
    await h.vault.delete('b.md');
    await h.engine.settle();
    expect(await paths(h.engine, 'learning')).toEqual([]);
    expect(h.engine.services.learning.memory.nodes.tombstones().map((t) => t.node_id).sort()).toEqual([ID_A, plainId].sort());
    await h.vault.write('restored/a.md', note({ id: ID_A }, 'kept learning'));
    await h.vault.write('b.md', 'plain note without id');
    await h.engine.settle();
    expect(h.engine.services.notes.note('restored/a.md')!.nodeId).toBe(ID_A);
    expect(h.engine.services.notes.note('b.md')!.nodeId).toBe(plainId);
    expect(h.engine.services.learning.memory.stats.get(ID_A).salience).toBeCloseTo(0.9);
  });

  test('tombstones older than 30 days are purged at open', async () => {
    const h = await openHarness({ 'a.md': 'short lived' });
    await h.engine.reconcile();
    const id = h.engine.services.notes.note('a.md')!.nodeId;
    await h.vault.delete('a.md');
    await h.engine.reconcile();
    await h.engine.close();
    h.clock.advance(31 * 24 * 3600 * 1000);
    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
    expect(again.engine.services.learning.memory.nodes.byId(id)).toBeNull();
  });

  test('a rename made while the engine was closed is recognised by content', async () => {
    const h = await openHarness({ 'a.md': 'offline move body' });
    await h.engine.reconcile();
    const id = h.engine.services.notes.note('a.md')!.nodeId;
    await h.engine.close();
    const text = h.vault.text('a.md')!;
    await h.vault.delete('a.md');
    h.vault.put('moved/a.md', text, false);
    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
    const report = await again.engine.reconcile();
    expect(report).toMatchObject({ renamed: 1, removed: 0 });
    expect(again.engine.services.notes.note('moved/a.md')!.nodeId).toBe(id);
  });

  test("the engine's own frontmatter write does not trigger a second re-index", async () => {
    const h = await openHarness({ 'a.md': note({ title: 'A' }, 'body') });
    await h.engine.reconcile();
    h.engine.startWatching();
    const before = h.engine.stats().indexed_since_open as number;
    await h.engine.services.notes.updateFrontmatter('a.md', (fm) => {
      fm.note_type = 'concept';
    });
    await h.engine.settle();
    expect(h.engine.stats().indexed_since_open).toBe(before + 1);
    expect(h.engine.services.notes.note('a.md')!.cached.meta.note_type).toBe('concept');
  });

  test('a vault folder that disappears changes nothing and says so', async () => {
    const h = await openHarness({ 'a.md': 'still here' });
    await h.engine.reconcile();
    h.vault.available = false;
    await expect(h.engine.reconcile()).rejects.toMatchObject({ code: 'vault_unavailable' });
    expect(await paths(h.engine, 'still')).toEqual(['a.md']);
    h.vault.available = true;
    expect(await h.engine.reconcile()).toMatchObject({ notes: 1, removed: 0 });
  });

  test('warm start: a reopened engine answers from the cache before any reconcile', async () => {
    const h = await openHarness({ 'a.md': 'persistent memory of otters' });
    await h.engine.reconcile();
    await h.engine.close();
    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
    expect(await paths(again.engine, 'otters', 'hybrid')).toEqual(['a.md']);
    expect(await again.engine.reconcile()).toMatchObject({ indexed: 0, unchanged: 1 });
  });
});

test('idle() waits for debounced events without cutting the debounce short', async () => {
  const h = await openHarness({ 'a.md': 'apples' });
  await h.engine.reconcile();
  h.engine.startWatching();
  await h.vault.write('a.md', 'quinces');
  let done = false;
  const idle = h.engine.idle().then(() => (done = true));
  await Promise.resolve();
  expect(done).toBe(false);
  expect(await paths(h.engine, 'quinces')).toEqual([]); // still debouncing
  for (let i = 0; i < 5 && !done; i++) {
    h.clock.advance(300);
    await new Promise((r) => setImmediate(r));
  }
  await idle;
  expect(await paths(h.engine, 'quinces')).toEqual(['a.md']);
});
