import fc from 'fast-check';
import { ObsidianBlobStore } from '../../plugin/obsidian-blob-store';
import { LithosError } from '../../shared/errors';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { CrashError, FakeAdapter } from './fake-obsidian';

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytes = (s: string): Uint8Array => enc.encode(s);
const text = (b: Uint8Array | null): string | null => (b ? dec.decode(b) : null);

describe('ObsidianBlobStore (BlobStore over app.vault.adapter under <vault>/.lithos/)', () => {
  test('keeps blobs in .lithos/ at the vault root, creating nested folders', async () => {
    const adapter = new FakeAdapter();
    const store = new ObsidianBlobStore(adapter);
    expect(await store.read('memory.sqlite')).toBeNull();
    await store.writeAtomic('memory.sqlite', bytes('v1'));
    await store.writeAtomic('spaces/minilm/vectors.bin', bytes('vec'));
    expect(adapter.text('.lithos/memory.sqlite')).toBe('v1');
    expect(adapter.text('.lithos/spaces/minilm/vectors.bin')).toBe('vec');
    expect(text(await store.read('spaces/minilm/vectors.bin'))).toBe('vec');
  });

  test('reads back exactly the bytes written, even from a view into a larger buffer', async () => {
    const store = new ObsidianBlobStore(new FakeAdapter());
    const big = new Uint8Array([9, 9, 1, 2, 3, 9]);
    await store.writeAtomic('b', big.subarray(2, 5));
    expect([...((await store.read('b')) ?? [])]).toEqual([1, 2, 3]);
  });

  test('replaces a blob although adapter.rename refuses to overwrite', async () => {
    const adapter = new FakeAdapter();
    const store = new ObsidianBlobStore(adapter);
    await store.writeAtomic('s', bytes('old'));
    await store.writeAtomic('s', bytes('new'));
    expect(text(await store.read('s'))).toBe('new');
    expect([...adapter.files.keys()]).toEqual(['.lithos/s']);
  });

  test('removes the target first only when rename cannot overwrite', async () => {
    const adapter = new FakeAdapter();
    adapter.renameOverwrites = true;
    const store = new ObsidianBlobStore(adapter);
    await store.writeAtomic('s', bytes('old'));
    await store.writeAtomic('s', bytes('new'));
    expect(text(await store.read('s'))).toBe('new');
    expect(adapter.calls.filter((c) => c.startsWith('remove'))).toEqual([]);
  });

  describe('a crash at any point of writeAtomic leaves the old or the new bytes, never a mix', () => {
    // Count the mutating adapter calls of one overwrite, then crash at each of them in turn.
    const mutations = async (existing: boolean): Promise<number> => {
      const adapter = new FakeAdapter();
      const store = new ObsidianBlobStore(adapter);
      if (existing) await store.writeAtomic('db', bytes('old contents'));
      const before = adapter.calls.length;
      await store.writeAtomic('db', bytes('NEW CONTENTS!'));
      return adapter.calls.slice(before).filter((c) => /^(writeBinary|rename|remove|mkdir)/.test(c)).length;
    };

    test('overwriting an existing blob', async () => {
      const n = await mutations(true);
      expect(n).toBeGreaterThanOrEqual(3);
      const outcomes = new Set<string | null>();
      for (let crashAt = 1; crashAt <= n; crashAt++) {
        const adapter = new FakeAdapter();
        await new ObsidianBlobStore(adapter).writeAtomic('db', bytes('old contents'));
        adapter.crashAfter(crashAt);
        await expect(new ObsidianBlobStore(adapter).writeAtomic('db', bytes('NEW CONTENTS!'))).rejects.toBeInstanceOf(CrashError);
        adapter.restart();
        const reopened = new ObsidianBlobStore(adapter);
        const got = text(await reopened.read('db'));
        expect(['old contents', 'NEW CONTENTS!']).toContain(got);
        expect(await reopened.list()).toEqual(['db']);
        outcomes.add(got);
      }
      // Early crashes keep the old value, late ones the new: both paths are exercised.
      expect([...outcomes].sort()).toEqual(['NEW CONTENTS!', 'old contents']);
    });

    test('writing a blob for the first time', async () => {
      const n = await mutations(false);
      expect(n).toBeGreaterThanOrEqual(3);
      for (let crashAt = 1; crashAt <= n; crashAt++) {
        const adapter = new FakeAdapter();
        adapter.crashAfter(crashAt);
        await expect(new ObsidianBlobStore(adapter).writeAtomic('db', bytes('first'))).rejects.toBeInstanceOf(CrashError);
        adapter.restart();
        const reopened = new ObsidianBlobStore(adapter);
        const got = text(await reopened.read('db'));
        expect([null, 'first']).toContain(got);
        expect(await reopened.list()).toEqual(got === null ? [] : ['db']);
      }
    });
  });

  test('append creates, then appends (appendBinary)', async () => {
    const adapter = new FakeAdapter();
    const store = new ObsidianBlobStore(adapter);
    await store.append('journal/ops.jsonl', bytes('{"a":1}\n'));
    await store.append('journal/ops.jsonl', bytes('{"b":2}\n'));
    expect(text(await store.read('journal/ops.jsonl'))).toBe('{"a":1}\n{"b":2}\n');
    expect(adapter.calls.some((c) => c.startsWith('appendBinary'))).toBe(true);
  });

  test('append without appendBinary (Obsidian < 1.12.3) rewrites atomically with the same result', async () => {
    const adapter = new FakeAdapter();
    adapter.appendBinary = undefined;
    const store = new ObsidianBlobStore(adapter);
    await store.append('j', bytes('one\n'));
    await store.append('j', bytes('two\n'));
    expect(text(await store.read('j'))).toBe('one\ntwo\n');
    adapter.crashAfter(2);
    await expect(store.append('j', bytes('three\n'))).rejects.toBeInstanceOf(CrashError);
    adapter.restart();
    expect(['one\ntwo\n', 'one\ntwo\nthree\n']).toContain(text(await new ObsidianBlobStore(adapter).read('j')));
  });

  test('remove deletes the blob and any leftovers of an interrupted write; removing nothing is fine', async () => {
    const adapter = new FakeAdapter();
    const store = new ObsidianBlobStore(adapter);
    await store.writeAtomic('x', bytes('1'));
    adapter.put('.lithos/x.tmp', 'garbage');
    await store.remove('x');
    await store.remove('never-existed');
    expect(await store.read('x')).toBeNull();
    expect([...adapter.files.keys()]).toEqual([]);
  });

  test('list walks sub-folders, filters by prefix, sorts, and hides temporary files', async () => {
    const adapter = new FakeAdapter();
    const store = new ObsidianBlobStore(adapter);
    expect(await store.list()).toEqual([]);
    for (const n of ['memory.sqlite', 'cache.sqlite', 'spaces/b.bin', 'spaces/a.bin']) await store.writeAtomic(n, bytes(n));
    adapter.put('.lithos/cache.sqlite.tmp', 'half');
    adapter.put('.lithos/pending.new', 'committed but not promoted');
    expect(await store.list()).toEqual(['cache.sqlite', 'memory.sqlite', 'pending', 'spaces/a.bin', 'spaces/b.bin']);
    expect(await store.list('spaces/')).toEqual(['spaces/a.bin', 'spaces/b.bin']);
    expect(text(await store.read('pending'))).toBe('committed but not promoted');
  });

  test('names may not climb out of .lithos/', async () => {
    const store = new ObsidianBlobStore(new FakeAdapter());
    await expect(store.writeAtomic('../notes/evil.md', bytes('x'))).rejects.toMatchObject({ code: 'path_outside_vault' });
    await expect(store.read('/etc/passwd')).rejects.toBeInstanceOf(LithosError);
  });

  test('behaves like the in-memory twin for any sequence of operations', async () => {
    const name = fc.constantFrom('a', 'b', 'dir/c', 'dir/sub/d');
    const data = fc.uint8Array({ maxLength: 16 });
    const op = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), name, data }),
      fc.record({ kind: fc.constant('append' as const), name, data }),
      fc.record({ kind: fc.constant('remove' as const), name }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), fc.boolean(), async (ops, overwrites) => {
        const adapter = new FakeAdapter();
        adapter.renameOverwrites = overwrites;
        const real = new ObsidianBlobStore(adapter);
        const twin = new MemoryBlobStore();
        for (const o of ops) {
          for (const s of [real, twin]) {
            if (o.kind === 'write') await s.writeAtomic(o.name, o.data);
            else if (o.kind === 'append') await s.append(o.name, o.data);
            else await s.remove(o.name);
          }
        }
        expect(await real.list()).toEqual(await twin.list());
        for (const n of await twin.list()) expect(await real.read(n)).toEqual(await twin.read(n));
      }),
      { numRuns: 150, seed: 20260101 },
    );
  });
});
