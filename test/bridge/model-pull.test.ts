/**
 * `lithos model pull` against a hub on 127.0.0.1 (node:http): a generated tiny BERT-shaped model under
 * all-MiniLM-L6-v2's id, served in the hub's layout (`/<id>/resolve/<rev>/<file>` with Range, and the
 * `/api/models/<id>/tree/<rev>[/<folder>]` listing whose lfs.oid is each LFS file's sha256). The command
 * reports progress, resumes a cut-off file with a Range request, refuses a file that fails its checksum
 * without losing the files already checked, and embeds every note once the model is in place.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../bridge/cli';
import { barLine, downloadProgress } from '../../bridge/commands/download-progress';
import { transformersModelFiles } from '../../shared/index/embedders/model-files';
import { DEFAULT_MODEL_ID } from '../../shared/index/embedders/transformers-embedder';
import { writeTinyModelUnder } from '../fixtures/tiny-model/generate';
import { loadTransformers } from '../index/embedders/load-transformers';
import { failure } from '../twins/error-code';

const FILES = transformersModelFiles('fp32');
/** Kept in Git LFS on the real hub (the listing gives their sha256); the small JSON files are in git (size only). */
const LFS = new Set(['tokenizer.json', 'onnx/model.onnx']);
const WEIGHTS = 'onnx/model.onnx';

interface Hub {
  base: string;
  files: Record<string, Uint8Array>;
  requests: { path: string; range: string | null }[];
  /** file → bytes after which the server cuts the connection (once). */
  dropAfter: Map<string, number>;
  /** file → bytes served instead of the real ones (the listing keeps the real digest). */
  tampered: Map<string, Uint8Array>;
  close(): Promise<void>;
}

async function startHub(files: Record<string, Uint8Array>): Promise<Hub> {
  const prefix = `/${DEFAULT_MODEL_ID}/resolve/main/`;
  const tree = `/api/models/${DEFAULT_MODEL_ID}/tree/main`;
  const hub = { files, requests: [], dropAfter: new Map(), tampered: new Map() } as unknown as Hub;
  const listing = (folder: string) =>
    FILES.filter((f) => (f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '') === folder).map((f) => {
      const size = files[f].byteLength;
      return LFS.has(f)
        ? { type: 'file', path: f, oid: 'pointer', size: 134, lfs: { oid: createHash('sha256').update(files[f]).digest('hex'), size, pointerSize: 134 } }
        : { type: 'file', path: f, oid: 'blob', size };
    });
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '');
    const range = req.headers.range ?? null;
    hub.requests.push({ path, range });
    if (path === tree || path === `${tree}/onnx`) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listing(path === tree ? '' : 'onnx')));
      return;
    }
    const file = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    const bytes = hub.tampered.get(file) ?? files[file];
    if (!bytes) {
      res.writeHead(404).end('Entry not found');
      return;
    }
    const start = Number(/^bytes=(\d+)-$/.exec(range ?? '')?.[1] ?? 0);
    const body = Buffer.from(bytes.subarray(start));
    const headers: Record<string, string> = { 'content-length': String(body.byteLength), 'accept-ranges': 'bytes' };
    if (start > 0) headers['content-range'] = `bytes ${start}-${bytes.byteLength - 1}/${bytes.byteLength}`;
    res.writeHead(start > 0 ? 206 : 200, headers);
    const drop = hub.dropAfter.get(file);
    if (drop !== undefined && drop > start) {
      hub.dropAfter.delete(file);
      // Half the file, then the connection is gone: the client sees a body that ends early.
      res.write(body.subarray(0, drop - start), () => res.socket?.destroy());
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hub.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hub.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return hub;
}

let root: string;
let hub: Hub;
let stderr: string[];
let spy: jest.SpyInstance;

beforeAll(async () => {
  await loadTransformers(); // the realm fix for onnxruntime-node's outputs under jest; the bridge then imports the same module
  root = await mkdtemp(join(tmpdir(), 'lithos-model-pull-'));
  await writeTinyModelUnder(join(root, 'source'), DEFAULT_MODEL_ID, { hidden: 24, seed: 11 });
  const files: Record<string, Uint8Array> = {};
  for (const f of FILES) files[f] = new Uint8Array(await readFile(join(root, 'source', DEFAULT_MODEL_ID, f)));
  hub = await startHub(files);
});
afterAll(async () => {
  await hub.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => {
  hub.requests.length = 0;
  stderr = [];
  spy = jest.spyOn(process.stderr, 'write').mockImplementation((s) => (stderr.push(String(s)), true));
});
afterEach(() => spy.mockRestore());

async function newVault(name: string): Promise<string> {
  const vault = join(root, name);
  await mkdir(join(vault, 'notes'), { recursive: true });
  await writeFile(join(vault, 'notes', 'a.md'), '# a\nThe cat sat on the mat.\n');
  await writeFile(join(vault, 'notes', 'b.md'), '# b\nQuantum physics and entanglement.\n');
  return vault;
}

const modelFile = (vault: string, f: string) => join(vault, '.lithos', 'models', ...DEFAULT_MODEL_ID.split('/'), ...f.split('/'));
const exists = (p: string) => stat(p).then(() => true, () => false);
const resolved = (f: string) => `/${DEFAULT_MODEL_ID}/resolve/main/${f}`;

test('a cut-off download resumes with a Range request, reports progress, then every note is embedded', async () => {
  const vault = await newVault('resume');
  const total = hub.files[WEIGHTS].byteLength;
  const cut = Math.floor(total / 2);
  hub.dropAfter.set(WEIGHTS, cut);

  const err = await failure(main(['model', 'pull', vault, '--from', hub.base, '--json']));
  expect(err.code).toBe('download_failed');
  expect(err.data).toMatchObject({ reason: 'network', file: WEIGHTS });
  expect(err.message).toMatch(/onnx\/model\.onnx failed after \d+ bytes/);
  const part = (await stat(modelFile(vault, WEIGHTS) + '.part')).size;
  expect(part).toBeGreaterThan(0);
  expect(part).toBeLessThanOrEqual(cut);
  expect(await exists(modelFile(vault, WEIGHTS))).toBe(false);
  expect(stderr.join('')).not.toMatch(/in place/); // --json: no progress

  hub.requests.length = 0;
  const out: string[] = [];
  expect(await main(['model', 'pull', vault, 'all-MiniLM-L6-v2', '--from', hub.base], (s) => out.push(s))).toBe(0);
  // Only the weights were fetched again, from where the part stopped.
  expect(hub.requests.filter((r) => r.path.includes('/resolve/'))).toEqual([{ path: resolved(WEIGHTS), range: `bytes=${part}-` }]);
  expect(new Uint8Array(await readFile(modelFile(vault, WEIGHTS)))).toEqual(hub.files[WEIGHTS]);
  expect(await exists(modelFile(vault, WEIGHTS) + '.part')).toBe(false);
  // Progress on stderr (not a terminal here: one line per file placed), the result on stdout.
  const progress = stderr.join('').split('\n').filter((l) => / in place, \d\/4 files/.test(l));
  expect(progress.map((l) => l.split(':')[0])).toEqual(FILES);
  expect(progress[3]).toContain('4/4 files');
  expect(out.join('\n')).toMatch(/sha256 checked: tokenizer\.json, onnx\/model\.onnx; size checked: config\.json, tokenizer_config\.json/);
  expect(out.join('\n')).toMatch(/Embedded 2 notes into minilm-l6-v2 .*Active spaces: hash-ngram-v2-384, minilm-l6-v2\./);

  const config = JSON.parse(await readFile(join(vault, '.lithos', 'config.json'), 'utf8')) as { embedding_spaces: string[]; model_dir: string };
  expect(config).toMatchObject({ embedding_spaces: ['hash-ngram-v2-384', 'minilm-l6-v2'], model_dir: 'models' });

  // Searches now say their vectors include a semantic space.
  const search: string[] = [];
  expect(await main(['search', vault, 'cat', '--mode', 'vector', '--json'], (s) => search.push(s))).toBe(0);
  expect(JSON.parse(search.join('\n')).spaces).toEqual([{ id: 'hash-ngram-v2-384', semantic: false }, { id: 'minilm-l6-v2', semantic: true }]);

  // A second pull fetches nothing (each file checked in place) and embeds nothing new.
  hub.requests.length = 0;
  const again: string[] = [];
  expect(await main(['model', 'pull', vault, '--from', hub.base, '--json'], (s) => again.push(s))).toBe(0);
  expect(hub.requests.filter((r) => r.path.includes('/resolve/'))).toEqual([]);
  const result = JSON.parse(again.join('\n'));
  expect(result).toMatchObject({ model: DEFAULT_MODEL_ID, space: 'minilm-l6-v2', verified: true, embed: { space: 'minilm-l6-v2', notes: 2 } });
  expect(result.files.map((f: { skipped: boolean; verified: string }) => [f.skipped, f.verified])).toEqual([[true, 'size'], [true, 'size'], [true, 'sha256'], [true, 'sha256']]);
});

test('a file that fails its sha256 is deleted, the checked files stay, nothing is embedded; a clean retry fetches only it', async () => {
  const vault = await newVault('checksum');
  const bad = hub.files[WEIGHTS].slice();
  bad[bad.byteLength >> 1] ^= 0xff;
  hub.tampered.set(WEIGHTS, bad);
  let err;
  try {
    err = await failure(main(['model', 'pull', vault, '--from', hub.base]));
  } finally {
    hub.tampered.clear();
  }
  expect(err.code).toBe('download_failed');
  expect(err.data).toMatchObject({ reason: 'checksum', file: WEIGHTS, sha256: createHash('sha256').update(bad).digest('hex') });
  expect(err.message).toMatch(/onnx\/model\.onnx has sha256 [0-9a-f]{64}, expected [0-9a-f]{64}: .*so it was deleted\. The 3 files already verified are kept\./);
  expect(await exists(modelFile(vault, WEIGHTS))).toBe(false);
  expect(await exists(modelFile(vault, WEIGHTS) + '.part')).toBe(false);
  for (const f of FILES.filter((x) => x !== WEIGHTS)) expect(await exists(modelFile(vault, f))).toBe(true);
  expect(await exists(join(vault, '.lithos', 'config.json'))).toBe(false); // no space activated on a bad model

  hub.requests.length = 0;
  expect(await main(['model', 'pull', vault, '--from', hub.base, '--download-only', '--json'], () => undefined)).toBe(0);
  expect(hub.requests.filter((r) => r.path.includes('/resolve/'))).toEqual([{ path: resolved(WEIGHTS), range: null }]);
  expect(new Uint8Array(await readFile(modelFile(vault, WEIGHTS)))).toEqual(hub.files[WEIGHTS]);
});

test('the terminal bar shows the share, the bytes and the file', () => {
  expect(barLine({ file: WEIGHTS, fileLoaded: 45_000_000, fileTotal: 90_000_000, loaded: 45_200_000, total: 90_400_000, filesDone: 3, files: 4 }, 10)).toBe(
    '[#####·····]  50%  45.2 MB / 90.4 MB  onnx/model.onnx (4/4)',
  );
  expect(barLine({ file: 'config.json', fileLoaded: 300, fileTotal: null, loaded: 300, total: null, filesDone: 0, files: 4 })).toBe('300 B  config.json (1/4)');
});

test('on a terminal the bar is redrawn in place and ends with a newline; with --json nothing is drawn', () => {
  const written: string[] = [];
  const tty = { isTTY: true, write: (s: string) => (written.push(s), true) } as unknown as NodeJS.WriteStream;
  const bar = downloadProgress(true, tty)!;
  bar({ file: 'config.json', fileLoaded: 0, fileTotal: 650, loaded: 0, total: 1300, filesDone: 0, files: 2 });
  bar({ file: WEIGHTS, fileLoaded: 650, fileTotal: 650, loaded: 1300, total: 1300, filesDone: 2, files: 2 });
  expect(written).toHaveLength(2);
  expect(written.every((w) => w.startsWith('\r'))).toBe(true);
  expect(written[1]).toMatch(/100%.*\n$/);
  expect(downloadProgress(false, tty)).toBeUndefined();
});

test('--from must be an http(s) URL; a model this build cannot embed is refused by name', async () => {
  const vault = await newVault('usage');
  expect((await failure(main(['model', 'pull', vault, '--from', 'ftp://example.org']))).message).toMatch(/--from must be an http\(s\) URL/);
  expect((await failure(main(['model', 'pull', vault, 'bge-small']))).message).toMatch(/all-MiniLM-L6-v2/);
  expect(hub.requests).toEqual([]);
});
