import { storedForm } from '../../shared/stores/vector-bytes';
import { CacheStore, type CachedChunk, type CachedNote } from '../../shared/stores/cache-store';
import { CACHE_FILE, CACHE_FORMAT_VERSION, cachePartFile, checksum, decodeCache } from '../../shared/stores/cache-codec';
import { SHARDS, shardOf } from '../../shared/stores/cache-tables';
import { env, settle, FailingBlobStore } from './helpers';

const note = (path: string, node_id: string, over: Partial<CachedNote> = {}): CachedNote => ({
  path,
  node_id,
  content_hash: `hash-${node_id}`,
  mtime: 1_700_000_000_000,
  size: 1234,
  meta: JSON.stringify({ meta: { title: path }, headings: [], links: [], problems: [] }),
  indexed_at: 1_700_000_000_500,
  ...over,
});
const chunk = (node_id: string, chunk_index: number, heading: string | null = null): CachedChunk => ({
  node_id,
  chunk_index,
  text: `text ${chunk_index} of ${node_id} — ünïcödé ✓`,
  heading,
});
/** Vectors as the store gives them back (int8-quantised, see vector-bytes.ts). */
const vec = (...xs: number[]) => storedForm(Float32Array.from(xs));

async function open() {
  const e = await env();
  const opened = await CacheStore.open(e);
  return { e, ...opened };
}

describe('CacheStore: notes and chunks', () => {
  it('round-trips a note, its meta JSON verbatim, and its chunks', async () => {
    const { store } = await open();
    const n = note('a/b.md', 'id-1', { meta: '{"weird": [1, "two", null], "k": "\\u0000"}' });
    store.putNote(n, [chunk('id-1', 0, 'Intro'), chunk('id-1', 1)]);
    expect(store.note('a/b.md')).toEqual(n);
    expect(store.note('nope.md')).toBeNull();
    expect(store.chunks('id-1')).toEqual([chunk('id-1', 0, 'Intro'), chunk('id-1', 1)]);
    expect(store.allNotes()).toEqual([n]);
    const empty = note('empty.md', 'id-e', { meta: '' });
    store.putNote(empty, [{ node_id: 'id-e', chunk_index: 0, text: '', heading: '' }]);
    expect(store.note('empty.md')).toEqual(empty);
    expect(store.chunks('id-e')).toEqual([{ node_id: 'id-e', chunk_index: 0, text: '', heading: '' }]);
  });

  it('putNote replaces the chunks of that note', async () => {
    const { store } = await open();
    store.putNote(note('a.md', 'id-1'), [chunk('id-1', 0), chunk('id-1', 1), chunk('id-1', 2)]);
    store.putNote(note('a.md', 'id-1', { content_hash: 'new' }), [chunk('id-1', 0, 'Only')]);
    expect(store.chunks('id-1')).toEqual([chunk('id-1', 0, 'Only')]);
    expect(store.note('a.md')?.content_hash).toBe('new');
  });

  it('refuses chunks that belong to another node', async () => {
    const { store } = await open();
    expect(() => store.putNote(note('a.md', 'id-1'), [chunk('id-2', 0)])).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    expect(store.note('a.md')).toBeNull();
  });

  it('a path taken over by another node id drops the old node’s chunks and vectors', async () => {
    const { store } = await open();
    store.putNote(note('a.md', 'old'), [chunk('old', 0)]);
    store.putVectors('old', 'space', 'hash-old', [vec(1, 0)]);
    store.putNote(note('a.md', 'new'), [chunk('new', 0)]);
    expect(store.chunks('old')).toEqual([]);
    expect(store.vectors('old', 'space')).toBeNull();
    expect(store.chunks('new')).toHaveLength(1);
  });

  it('removeNote drops the note and its chunks but keeps vectors until pruned', async () => {
    const { store } = await open();
    store.putNote(note('a.md', 'id-1'), [chunk('id-1', 0)]);
    store.putNote(note('b.md', 'id-2'), [chunk('id-2', 0)]);
    store.putVectors('id-1', 'space', 'hash-id-1', [vec(1, 2)]);
    store.removeNote('a.md');
    expect(store.note('a.md')).toBeNull();
    expect(store.chunks('id-1')).toEqual([]);
    expect(store.vectors('id-1', 'space')).toEqual([vec(1, 2)]);
    expect(store.pruneOrphans()).toEqual({ chunks: 0, vectors: 1 });
    expect(store.vectors('id-1', 'space')).toBeNull();
    expect(store.counts()).toMatchObject({ notes: 1, chunks: 1 });
  });

  it('renameNote moves the row; chunks and vectors stay with the node id', async () => {
    const { store } = await open();
    store.putNote(note('a.md', 'id-1'), [chunk('id-1', 0)]);
    store.putNote(note('b.md', 'id-2'), [chunk('id-2', 0)]);
    store.putVectors('id-1', 'space', 'hash-id-1', [vec(3, 4)]);
    store.renameNote('a.md', 'b.md'); // displaces the note at b.md
    expect(store.note('a.md')).toBeNull();
    expect(store.note('b.md')).toEqual({ ...note('a.md', 'id-1'), path: 'b.md' });
    expect(store.chunks('id-1')).toHaveLength(1);
    expect(store.chunks('id-2')).toEqual([]);
    expect(store.vectors('id-1', 'space', 'hash-id-1')).toEqual([vec(3, 4)]);
    store.renameNote('ghost.md', 'c.md');
    expect(store.note('c.md')).toBeNull();
  });

  it('streams every chunk in pages, even across a snapshot taken mid-iteration', async () => {
    const { store } = await open();
    store.transaction(() => {
      for (let i = 0; i < 1200; i++) store.putNote(note(`n${i}.md`, `id-${String(i).padStart(4, '0')}`), [chunk(`id-${String(i).padStart(4, '0')}`, 0), chunk(`id-${String(i).padStart(4, '0')}`, 1)]);
    });
    const seen: string[] = [];
    for (const c of store.allChunks()) {
      seen.push(`${c.node_id}#${c.chunk_index}`);
      if (seen.length === 1500) await store.flush(); // exports the database between two pages' rows
    }
    expect(seen).toHaveLength(2400);
    expect(new Set(seen).size).toBe(2400);
    expect(seen.slice(0, 3)).toEqual(['id-0000#0', 'id-0000#1', 'id-0001#0']);
  });

  it('refuses malformed chunks before writing anything', async () => {
    const { store } = await open();
    expect(() => store.putNote(note('a.md', 'id-1'), [{ ...chunk('id-1', 0), text: null as unknown as string }])).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(() => store.putNote(note('a.md', 'id-1'), [chunk('id-1', -1)])).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    expect(store.note('a.md')).toBeNull();
  });

  it('a failing inner transaction rolls back only its own changes', async () => {
    const { store } = await open();
    store.putNote(note('a.md', 'id-1'), [chunk('id-1', 0)]);
    store.transaction(() => {
      store.putVectors('id-1', 's', 'h', [vec(1, 2)]);
      expect(() =>
        store.transaction(() => {
          store.removeNote('a.md');
          store.retireSpace('s');
          store.appendTerms(0, ['alpha']);
          store.putNote(note('b.md', 'id-2'), [chunk('id-9', 0)]);
        }),
      ).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    });
    expect(store.allNotes()).toEqual([note('a.md', 'id-1')]);
    expect(store.chunks('id-1')).toEqual([chunk('id-1', 0)]);
    expect(store.vectors('id-1', 's', 'h')).toEqual([vec(1, 2)]);
    expect(store.spaces()).toEqual([{ id: 's', dimensions: 2, status: 'active' }]);
    expect(store.termDictionary()).toEqual([]);
  });

  it('a failing batch inside transaction() leaves nothing behind', async () => {
    const { store } = await open();
    expect(() =>
      store.transaction(() => {
        store.putNote(note('a.md', 'id-1'), [chunk('id-1', 0)]);
        store.putNote(note('b.md', 'id-2'), [chunk('id-9', 0)]);
      }),
    ).toThrow();
    expect(store.allNotes()).toEqual([]);
    expect(store.counts().chunks).toBe(0);
  });
});

describe('CacheStore: vectors and spaces', () => {
  it('vectors in their stored form round-trip bit for bit, in chunk order', async () => {
    const { store } = await open();
    const vs = [vec(0.1, -2.5, 3e-8, Number.MAX_VALUE > 1 ? 3.4e38 : 0), vec(1, 0, -0, 0.333)];
    store.putVectors('id-1', 'minilm', 'h1', vs);
    const got = store.vectors('id-1', 'minilm');
    expect(got).toHaveLength(2);
    expect(got?.map((v) => [...new Uint8Array(v.buffer, v.byteOffset, v.byteLength)])).toEqual(vs.map((v) => [...new Uint8Array(v.buffer)]));
  });

  it('hands out vectors still quantised, matching their decoded form', async () => {
    const { store } = await open();
    const vs = [Float32Array.of(0.5, -1, 0.25), Float32Array.of(0, 0, 0)];
    store.putVectors('id-1', 's', 'h1', vs);
    const p = store.packedVectors('id-1', 's', 'h1')!;
    expect(p).toMatchObject({ dims: 3, count: 2, contentHash: 'h1' });
    const decoded = store.vectors('id-1', 's')!;
    for (let r = 0; r < 2; r++) for (let i = 0; i < 3; i++) expect(Math.fround(p.values[r * 3 + i] * p.steps[r])).toBe(decoded[r][i]);
    expect(decoded).toEqual(vs.map(storedForm));
    expect(store.packedVectors('id-1', 's', 'other')).toBeNull();
    expect(store.packedVectors('id-2', 's')).toBeNull();
  });

  it('returns null when absent or computed from other content', async () => {
    const { store } = await open();
    store.putVectors('id-1', 's', 'h1', [vec(1, 2)]);
    expect(store.vectors('id-1', 's', 'h1')).toEqual([vec(1, 2)]);
    expect(store.vectors('id-1', 's', 'h2')).toBeNull();
    expect(store.vectors('id-1', 'other-space')).toBeNull();
    expect(store.vectors('id-2', 's')).toBeNull();
  });

  it('putVectors replaces the node’s vectors in that space only', async () => {
    const { store } = await open();
    store.putVectors('id-1', 'a', 'h', [vec(1), vec(2), vec(3)]);
    store.putVectors('id-1', 'b', 'h', [vec(9, 9)]);
    store.putVectors('id-1', 'a', 'h2', [vec(4)]);
    expect(store.vectors('id-1', 'a')).toEqual([vec(4)]);
    expect(store.vectors('id-1', 'b')).toEqual([vec(9, 9)]);
    store.removeVectors('id-1', 'b');
    expect(store.vectors('id-1', 'b')).toBeNull();
    store.removeVectors('id-1');
    expect(store.counts().vectors).toBe(0);
  });

  it('registers spaces on first use and refuses vectors of the wrong dimension', async () => {
    const { e, store } = await open();
    store.putVectors('id-1', 'hash-ngram-v1-3', 'h', [vec(1, 2, 3)]);
    expect(store.spaces()).toEqual([{ id: 'hash-ngram-v1-3', dimensions: 3, status: 'active' }]);
    expect(() => store.putVectors('id-2', 'hash-ngram-v1-3', 'h', [vec(1, 2)])).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    expect(() => store.putVectors('id-2', 'x', 'h', [vec(1, 2), vec(1)])).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    e.clock.advance(10);
    store.registerSpace('minilm-l6-v2', 384);
    store.registerSpace('minilm-l6-v2', 384); // idempotent
    expect(store.spaces().map((s) => s.id)).toEqual(['hash-ngram-v1-3', 'minilm-l6-v2']);
    expect(() => store.registerSpace('bad', 0)).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });

  it('retiring a space drops its vectors; registering it again re-activates it', async () => {
    const { e, store } = await open();
    store.putVectors('id-1', 'old', 'h', [vec(1, 2)]);
    e.clock.advance(1); // spaces are listed oldest first
    store.putVectors('id-1', 'new', 'h', [vec(3, 4)]);
    store.retireSpace('old');
    expect(store.spaces()).toEqual([
      { id: 'old', dimensions: 2, status: 'retired' },
      { id: 'new', dimensions: 2, status: 'active' },
    ]);
    expect(store.vectors('id-1', 'old')).toBeNull();
    expect(store.vectors('id-1', 'new')).toEqual([vec(3, 4)]);
    store.registerSpace('old', 2);
    expect(store.spaces()[0].status).toBe('active');
  });

  it('re-declaring a space with another dimension drops its vectors, with a warning', async () => {
    const { e, store } = await open();
    store.putVectors('id-1', 's', 'h', [vec(1, 2)]);
    store.registerSpace('s', 3);
    expect(store.vectors('id-1', 's')).toBeNull();
    expect(store.spaces()).toEqual([{ id: 's', dimensions: 3, status: 'active' }]);
    expect(e.logger.at('warn')[0]).toMatch(/changed from 2 to 3 dimensions/);
  });

  it('streams a whole space in pages, ordered by node then chunk', async () => {
    const { store } = await open();
    store.transaction(() => {
      for (let i = 0; i < 700; i++) {
        const id = `id-${String(i).padStart(4, '0')}`;
        store.putVectors(id, 's', 'h', [vec(i, 0), vec(i, 1)]);
        store.putVectors(id, 'other', 'h', [vec(-1)]);
      }
    });
    const rows = [...store.allVectors('s')];
    expect(rows).toHaveLength(1400);
    expect(rows[0]).toEqual({ node_id: 'id-0000', chunk_index: 0, vector: vec(0, 0) });
    expect(rows[1401 - 2]).toEqual({ node_id: 'id-0699', chunk_index: 1, vector: vec(699, 1) });
    expect(rows.every((r, n) => r.vector[1] === vec(Math.floor(n / 2), n % 2)[1] && r.chunk_index === n % 2)).toBe(true);
  });
});

describe('CacheStore: persistence', () => {
  it('restores notes, chunks, vectors and spaces after a restart', async () => {
    const { e, store, rebuilt } = await open();
    expect(rebuilt).toBe(true);
    store.registerSpace('s', 2);
    store.putNote(note('a.md', 'id-1'), [chunk('id-1', 0, 'H'), chunk('id-1', 1)]);
    store.putVectors('id-1', 's', 'hash-id-1', [vec(1, 2), vec(3, 4)]);
    await store.close();

    const again = await CacheStore.open(await env(e.blobs.clone()));
    expect(again.rebuilt).toBe(false);
    expect(again.warnings).toEqual([]);
    expect(again.store.allNotes()).toEqual([note('a.md', 'id-1')]);
    expect([...again.store.allChunks()]).toEqual([chunk('id-1', 0, 'H'), chunk('id-1', 1)]);
    expect(again.store.vectors('id-1', 's', 'hash-id-1')).toEqual([vec(1, 2), vec(3, 4)]);
    expect(again.store.spaces()).toEqual([{ id: 's', dimensions: 2, status: 'active' }]);
  });

  it('debounces: a burst of changes becomes one snapshot after the quiet period', async () => {
    const { e, store } = await open();
    for (let i = 0; i < 100; i++) store.putNote(note(`n${i}.md`, `id-${i}`), [chunk(`id-${i}`, 0)]);
    e.clock.advance(1999);
    await settle();
    expect(e.blobs.writes).toBe(0);
    e.clock.advance(1);
    await settle();
    expect(e.blobs.writes).toBe(SHARDS + 1); // one snapshot; a new cache's first one writes every file
    const again = await CacheStore.open(await env(e.blobs.clone()));
    expect(again.store.counts()).toMatchObject({ notes: 100, chunks: 100 });
  });

  it('a later snapshot rewrites only the files whose part changed', async () => {
    const { e, store } = await open();
    for (let i = 0; i < 100; i++) store.putNote(note(`n${i}.md`, `id-${i}`), [chunk(`id-${i}`, 0)]);
    await store.flush();
    const before = new Map([...e.blobs.files].map(([k, v]) => [k, v]));
    store.putNote(note('n7.md', 'id-7', { content_hash: 'edited' }), [chunk('id-7', 0)]);
    store.putVectors('id-7', 's', 'edited', [vec(1, 2)]); // a new space: the global part changes too
    await store.flush();
    const rewritten = [...e.blobs.files.keys()].filter((k) => e.blobs.files.get(k) !== before.get(k)).sort();
    expect(rewritten).toEqual([CACHE_FILE, cachePartFile(shardOf('id-7'))].sort());
    const again = await CacheStore.open(await env(e.blobs.clone()));
    expect(again.store.note('n7.md')?.content_hash).toBe('edited');
    expect(again.store.counts()).toMatchObject({ notes: 100, vectors: 1, spaces: 1 });
  });

  it('a snapshot that fails to write is retried after another quiet period', async () => {
    const blobs = new FailingBlobStore();
    const e = await env(blobs);
    const { store } = await CacheStore.open(e);
    store.putNote(note('a.md', 'id-1'), []);
    blobs.failWrite.add(CACHE_FILE);
    e.clock.advance(2000);
    await settle();
    expect(blobs.files.has(CACHE_FILE)).toBe(false);
    expect(e.logger.at('error')[0]).toMatch(/could not write cache\.bin; will retry/);
    blobs.failWrite.clear();
    e.clock.advance(2000);
    await settle();
    expect(blobs.files.has(CACHE_FILE)).toBe(true);
    expect((await CacheStore.open(await env(blobs.clone()))).store.note('a.md')).not.toBeNull();
  });

  it('refuses use after close', async () => {
    const { store } = await open();
    await store.close();
    expect(() => store.putNote(note('a.md', 'id-1'), [])).toThrow(expect.objectContaining({ code: 'internal' }));
  });

  it('a crash before the snapshot only loses derivable cache entries, never the file', async () => {
    const { e, store } = await open();
    store.putNote(note('a.md', 'id-1'), []);
    await store.flush();
    store.putNote(note('b.md', 'id-2'), []);
    const again = await CacheStore.open(await env(e.blobs.clone()));
    expect(again.warnings).toEqual([]);
    expect(again.store.allNotes().map((n) => n.path)).toEqual(['a.md']);
  });

  it('a cache.sqlite from an earlier version is not read: the cache starts empty and the old file goes at the first snapshot', async () => {
    const e = await env();
    e.blobs.files.set('cache.sqlite', new Uint8Array([1, 2, 3]));
    const { store, rebuilt, warnings } = await CacheStore.open(e);
    expect(rebuilt).toBe(true);
    expect(warnings).toEqual([]);
    expect(store.counts().notes).toBe(0);
    expect(e.blobs.files.has('cache.sqlite')).toBe(true);
    store.putNote(note('a.md', 'id-1'), []);
    await store.flush();
    expect(await e.blobs.list()).toEqual(Array.from({ length: SHARDS + 1 }, (_, k) => cachePartFile(k - 1)).sort());
  });
});

describe('CacheStore: the cache file', () => {
  async function written() {
    const { e, store } = await open();
    store.registerSpace('s', 2);
    store.putNote(note('a.md', 'id-1'), [chunk('id-1', 0, 'H')]);
    store.putVectors('id-1', 's', 'hash-id-1', [vec(1, 2)]);
    store.appendTerms(0, ['otter', 'ünï']);
    store.putTermBags([{ node_id: 'id-1', lexHash: 'lh', ids: Uint32Array.of(0, 1), tfs: Uint16Array.of(3, 1), length: 4 }]);
    await store.close();
    return e.blobs;
  }
  const decodeOk = (b: Uint8Array) => decodeCache(b).ok;
  /** Re-seals a hand-edited file with a valid checksum, so only the edit itself is judged. */
  const reseal = (b: Uint8Array) => {
    new DataView(b.buffer, b.byteOffset).setUint32(16, checksum(b, 24), true);
    return b;
  };

  it('round-trips every table, term bags included', async () => {
    const again = await CacheStore.open(await env(await written()));
    expect(again.rebuilt).toBe(false);
    expect(again.store.termDictionary()).toEqual(['otter', 'ünï']);
    expect(again.store.termBag('id-1')).toEqual({ node_id: 'id-1', lexHash: 'lh', ids: Uint32Array.of(0, 1), tfs: Uint16Array.of(3, 1), length: 4 });
    expect(again.store.chunks('id-1')).toEqual([chunk('id-1', 0, 'H')]);
    expect(again.store.vectors('id-1', 's', 'hash-id-1')).toEqual([vec(1, 2)]);
  });

  it('round-trips text far longer in UTF-8 than in characters (the writer grows past its size estimate)', async () => {
    const { e, store } = await open();
    const text = 'é✓ 日本語 🙂'.repeat(40_000);
    store.putNote(note('u.md', 'id-u', { meta: text }), [{ node_id: 'id-u', chunk_index: 0, text, heading: [...text].slice(0, 50).join('') }]);
    await store.close();
    const again = await CacheStore.open(await env(e.blobs.clone()));
    expect(again.store.note('u.md')?.meta).toBe(text);
    expect(again.store.chunks('id-u')).toEqual([{ node_id: 'id-u', chunk_index: 0, text, heading: [...text].slice(0, 50).join('') }]);
  });

  it.each([
    ['one flipped byte', (b: Uint8Array) => ((b[b.length - 5] ^= 0x40), b), /checksum mismatch/],
    ['a torn tail', (b: Uint8Array) => b.slice(0, b.length - 7), /truncated or padded/],
    ['a foreign file', () => new TextEncoder().encode('SQLite format 3\0 and more bytes here'), /not a Lithos cache file/],
    ['a newer format', (b: Uint8Array) => (new DataView(b.buffer, b.byteOffset).setUint32(8, CACHE_FORMAT_VERSION + 1, true), b), /written by a newer Lithos/],
  ])('%s: that file is set aside with a warning, the others still load', async (_label, damage, reason) => {
    const blobs = await written();
    const file = cachePartFile(shardOf('id-1'));
    const bad = damage(blobs.files.get(file)!.slice());
    blobs.files.set(file, bad);
    const e = await env(blobs);
    const { store, rebuilt, warnings } = await CacheStore.open(e);
    expect(rebuilt).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(reason);
    expect(warnings[0]).toMatch(new RegExp(`^cache\\.${shardOf('id-1').toString(16)}\\.bin was damaged \\(.*\\); its notes will be re-indexed from the Markdown; the damaged file is kept as`));
    expect(blobs.files.get(`${file}.corrupt-2026-01-01T00-00-00-000Z`)).toEqual(bad);
    expect(store.counts()).toEqual({ notes: 0, chunks: 0, vectors: 0, spaces: 1 });
    expect(store.termDictionary()).toEqual(['otter', 'ünï']);
    // The first snapshot writes the part again.
    store.putNote(note('b.md', 'id-2'), []);
    await store.flush();
    expect(decodeOk(blobs.files.get(file)!)).toBe(true);
  });

  it('without its dictionary (global file damaged) no term bag is kept: their ids would mean nothing', async () => {
    const blobs = await written();
    blobs.files.set(CACHE_FILE, new Uint8Array(10));
    const { store, warnings } = await CacheStore.open(await env(blobs));
    expect(warnings[0]).toMatch(/^cache\.bin was damaged/);
    expect(store.note('a.md')).not.toBeNull();
    expect(store.termBag('id-1')).toBeNull();
  });

  it('a body whose records do not add up is refused even with a valid checksum', async () => {
    const blobs = await written();
    const file = cachePartFile(shardOf('id-1'));
    const b = blobs.files.get(file)!.slice();
    const longer = new Uint8Array(b.length + 4);
    longer.set(b);
    const view = new DataView(longer.buffer);
    view.setUint32(12, longer.length - 24, true);
    blobs.files.set(file, reseal(longer));
    const { rebuilt, warnings } = await CacheStore.open(await env(blobs));
    expect(rebuilt).toBe(true);
    expect(warnings[0]).toMatch(/unexpected bytes after the last table/);
  });

  it('an older format is rebuilt quietly, without a warning or a kept copy', async () => {
    const blobs = await written();
    for (const b of blobs.files.values()) new DataView(b.buffer, b.byteOffset).setUint32(8, CACHE_FORMAT_VERSION - 1, true);
    const files = await blobs.list();
    const e = await env(blobs);
    const { store, rebuilt, warnings } = await CacheStore.open(e);
    expect(rebuilt).toBe(true);
    expect(warnings).toEqual([]);
    expect(e.logger.at('info')[0]).toMatch(/written by an older Lithos/);
    expect(await blobs.list()).toEqual(files);
    expect(store.counts()).toEqual({ notes: 0, chunks: 0, vectors: 0, spaces: 0 });
  });

  it('a path found in two shards (a crash between two files\' writes) keeps the row indexed last', async () => {
    const { e, store } = await open();
    const x = 'id-a';
    const y = ['id-b', 'id-c', 'id-d', 'id-e', 'id-f'].find((id) => shardOf(id) !== shardOf(x))!;
    store.putNote(note('p.md', x, { indexed_at: 1 }), []);
    await store.flush();
    const stale = e.blobs.files.get(cachePartFile(shardOf(x)))!;
    store.putNote(note('p.md', y, { indexed_at: 2 }), []); // the path now belongs to y, in another shard
    await store.flush();
    e.blobs.files.set(cachePartFile(shardOf(x)), stale); // as if x's shard had not been rewritten
    const again = await CacheStore.open(await env(e.blobs.clone()));
    expect(again.store.note('p.md')?.node_id).toBe(y);
  });
});
