import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeBlobStore } from '../../bridge/node-blob-store';
import { codeOf } from '../twins/error-code';

const enc = new TextEncoder();
const dec = new TextDecoder();
let tmp: string;
let vault: string;
let lithos: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lithos-blobs-'));
  vault = path.join(tmp, 'vault');
  lithos = path.join(vault, '.lithos');
  fs.mkdirSync(vault);
});

afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));


describe('NodeBlobStore', () => {
  it('reads null for a missing file and lists nothing before the folder exists', async () => {
    const store = new NodeBlobStore(lithos);
    expect(await store.read('journal.log')).toBeNull();
    expect(await store.list()).toEqual([]);
    expect(fs.existsSync(lithos)).toBe(false);
  });

  it('appends and reads back every byte in order, creating .lithos/ private to the user', async () => {
    const store = new NodeBlobStore(lithos);
    await store.append('journal.log', enc.encode('{"op":1}\n'));
    await store.append('journal.log', enc.encode('{"op":2}\n'));
    expect(dec.decode((await store.read('journal.log'))!)).toBe('{"op":1}\n{"op":2}\n');
    if (process.platform !== 'win32') expect(fs.statSync(lithos).mode & 0o777).toBe(0o700);
  });

  it('writeAtomic replaces the whole content and leaves no temp file behind', async () => {
    const store = new NodeBlobStore(lithos);
    await store.writeAtomic('signals.db', new Uint8Array([1, 2, 3, 4, 5]));
    await store.writeAtomic('signals.db', new Uint8Array([9]));
    expect(Array.from((await store.read('signals.db'))!)).toEqual([9]);
    expect(fs.readdirSync(lithos)).toEqual(['signals.db']);
  });

  it('supports sub-folders and lists recursively with "/" names, filtered by prefix', async () => {
    const store = new NodeBlobStore(lithos);
    await store.writeAtomic('migrations/registry.json', enc.encode('{}'));
    await store.writeAtomic('migrations/2026/one.json', enc.encode('1'));
    await store.append('journal.log', enc.encode('x'));
    expect(await store.list()).toEqual(['journal.log', 'migrations/2026/one.json', 'migrations/registry.json']);
    expect(await store.list('migrations/')).toEqual(['migrations/2026/one.json', 'migrations/registry.json']);
    expect(dec.decode((await store.read('migrations/registry.json'))!)).toBe('{}');
  });

  it('hides leftovers of an interrupted atomic write from list()', async () => {
    const store = new NodeBlobStore(lithos);
    await store.writeAtomic('index.bin', enc.encode('ok'));
    fs.writeFileSync(path.join(lithos, 'index.bin.tmp-4242-deadbeef0001'), 'half');
    expect(await store.list()).toEqual(['index.bin']);
  });

  it('remove deletes and is a no-op for a missing file', async () => {
    const store = new NodeBlobStore(lithos);
    await store.writeAtomic('a.json', enc.encode('1'));
    await store.remove('a.json');
    await store.remove('a.json');
    expect(await store.read('a.json')).toBeNull();
  });

  it('refuses names that would leave .lithos/', async () => {
    const store = new NodeBlobStore(lithos);
    for (const name of ['../note.md', 'a/../../x', '/etc/passwd', 'a\\..\\b', '', 'a//b', 'C:/x']) {
      expect(await codeOf(store.writeAtomic(name, enc.encode('x')))).toBe('invalid_argument');
      expect(await codeOf(store.read(name))).toBe('invalid_argument');
    }
    expect(fs.readdirSync(vault)).toEqual([]);
  });

  it('reports a missing vault as vault_unavailable instead of creating it', async () => {
    fs.rmSync(vault, { recursive: true });
    const store = new NodeBlobStore(lithos);
    expect(await codeOf(store.writeAtomic('a.json', enc.encode('1')))).toBe('vault_unavailable');
    expect(await codeOf(store.append('journal.log', enc.encode('1')))).toBe('vault_unavailable');
    expect(fs.existsSync(vault)).toBe(false);
  });
});
