/**
 * The model downloader against a streaming hub twin and an in-memory file port: byte progress,
 * atomic placement (a final name never holds half a file), skip and resume, cancel, clear errors.
 */
import { createHash } from 'node:crypto';
import { downloadModel, modelFolderStatus, type DownloadProgress, type ExpectedFile, type ModelDownloadRequest } from '../../../shared/index/embedders/model-download';
import { transformersModelFiles } from '../../../shared/index/embedders/model-files';
import { failure } from '../../twins/error-code';
import { MemoryModelFiles } from '../../twins/memory-model-files';
import { streamingHub } from '../../twins/streaming-hub';

const MODEL = 'Xenova/all-MiniLM-L6-v2';
const FILES = transformersModelFiles('fp32');
const DIR = `.lithos/models/${MODEL}`;

function bytes(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
}

const CONTENT: Record<string, Uint8Array> = {
  'config.json': bytes(650, 1),
  'tokenizer_config.json': bytes(366, 2),
  'tokenizer.json': bytes(7_117, 3),
  'onnx/model.onnx': bytes(45_210, 4),
};
const TOTAL = Object.values(CONTENT).reduce((s, b) => s + b.byteLength, 0);

function setup(extra: Partial<ModelDownloadRequest> = {}) {
  const hub = streamingHub(MODEL, CONTENT);
  const port = new MemoryModelFiles();
  const events: DownloadProgress[] = [];
  const request = (more: Partial<ModelDownloadRequest> = {}): ModelDownloadRequest => ({
    modelId: MODEL,
    files: FILES,
    root: '.lithos/models',
    fetch: hub.fetch,
    port,
    onProgress: (p) => events.push(p),
    ...extra,
    ...more,
  });
  return { hub, port, events, request };
}

function finalFiles(port: MemoryModelFiles): string[] {
  return [...port.files.keys()].filter((k) => !k.endsWith('.part')).sort();
}

describe('downloadModel', () => {
  test('streams every file into <root>/<modelId>/ with monotonic byte progress and the right totals', async () => {
    const { port, events, request } = setup();
    const result = await downloadModel(request());

    expect(result).toMatchObject({ folder: DIR, bytes: TOTAL });
    for (const f of FILES) expect(port.files.get(`${DIR}/${f}`)).toEqual(CONTENT[f]);
    expect([...port.files.keys()].some((k) => k.endsWith('.part'))).toBe(false);

    // Chunks of 1,000 bytes: the weights alone report dozens of steps.
    expect(events.filter((e) => e.file === 'onnx/model.onnx').length).toBeGreaterThan(40);
    for (let i = 1; i < events.length; i++) expect(events[i].loaded).toBeGreaterThanOrEqual(events[i - 1].loaded);
    // The total is unknown until the last file's response says its size, then exact.
    expect(events[0].total).toBeNull();
    expect(events.filter((e) => e.file === 'onnx/model.onnx').every((e) => e.total === TOTAL && e.fileTotal === 45_210)).toBe(true);
    expect(events[events.length - 1]).toMatchObject({ loaded: TOTAL, total: TOTAL, filesDone: 4, files: 4 });
    expect(await modelFolderStatus(port, '.lithos/models', MODEL, FILES)).toEqual({ folder: DIR, complete: true, bytes: TOTAL, missing: [] });
  });

  test('files already complete are not fetched again, and count towards the progress', async () => {
    const { hub, port, events, request } = setup();
    await port.append(`${DIR}/config.json`, CONTENT['config.json']);
    await port.append(`${DIR}/tokenizer.json`, CONTENT['tokenizer.json']);
    const result = await downloadModel(request());
    expect(result.files.filter((f) => f.skipped).map((f) => f.file)).toEqual(['config.json', 'tokenizer.json']);
    expect(hub.requests.map((r) => r.url.split('/resolve/main/')[1])).toEqual(['tokenizer_config.json', 'onnx/model.onnx']);
    expect(events[events.length - 1]).toMatchObject({ loaded: TOTAL, total: TOTAL });

    hub.requests.length = 0;
    await downloadModel(request());
    expect(hub.requests).toEqual([]);
  });

  test('a dropped connection leaves only a .part, and the next run resumes it with a Range request', async () => {
    const { hub, port, request } = setup();
    hub.dropAfter.set('onnx/model.onnx', 20_500);
    const err = await failure(downloadModel(request()));
    expect(err.code).toBe('download_failed');
    expect(err.data).toMatchObject({ reason: 'network', file: 'onnx/model.onnx' });
    expect(err.message).toMatch(/onnx\/model\.onnx failed after 20500 bytes: network connection lost/);
    expect(port.files.has(`${DIR}/onnx/model.onnx`)).toBe(false);
    expect(port.files.get(`${DIR}/onnx/model.onnx.part`)?.byteLength).toBe(20_500);
    const status = await modelFolderStatus(port, '.lithos/models', MODEL, FILES);
    expect(status).toMatchObject({ complete: false, missing: ['onnx/model.onnx'] });

    hub.dropAfter.clear();
    hub.requests.length = 0;
    const events: DownloadProgress[] = [];
    await downloadModel(request({ onProgress: (p) => events.push(p) }));
    expect(hub.requests).toEqual([{ url: `https://huggingface.co/${MODEL}/resolve/main/onnx/model.onnx`, range: 'bytes=20500-' }]);
    expect(port.files.get(`${DIR}/onnx/model.onnx`)).toEqual(CONTENT['onnx/model.onnx']);
    expect(port.files.has(`${DIR}/onnx/model.onnx.part`)).toBe(false);
    for (let i = 1; i < events.length; i++) expect(events[i].loaded).toBeGreaterThanOrEqual(events[i - 1].loaded);
    expect(events[events.length - 1]).toMatchObject({ loaded: TOTAL, total: TOTAL });
  });

  test('a server that ignores Range sends the whole file again: the stale part is replaced, not appended to', async () => {
    const { hub, port, request } = setup();
    await port.append(`${DIR}/onnx/model.onnx.part`, bytes(9_999, 99));
    hub.ignoreRange = true;
    await downloadModel(request());
    expect(port.files.get(`${DIR}/onnx/model.onnx`)).toEqual(CONTENT['onnx/model.onnx']);
  });

  test('a part longer than the file (416) is dropped and the file fetched from the start', async () => {
    const { hub, port, request } = setup();
    await port.append(`${DIR}/config.json.part`, bytes(5_000, 7));
    await downloadModel(request());
    expect(port.files.get(`${DIR}/config.json`)).toEqual(CONTENT['config.json']);
    expect(hub.requests.filter((r) => r.url.endsWith('/config.json')).map((r) => r.range)).toEqual(['bytes=5000-', null]);
  });

  test('cancel mid-file stops with `cancelled` and leaves no final half file; the next run resumes', async () => {
    const { hub, port, request } = setup();
    const ctl = new AbortController();
    hub.beforeChunk = (file, offset) => {
      if (file === 'onnx/model.onnx' && offset >= 12_000) ctl.abort();
    };
    const err = await failure(downloadModel(request({ signal: ctl.signal })));
    expect(err.code).toBe('cancelled');
    expect(err.message).toMatch(/cancelled during onnx\/model\.onnx/);
    expect(port.files.has(`${DIR}/onnx/model.onnx`)).toBe(false);
    expect(port.files.get(`${DIR}/onnx/model.onnx.part`)?.byteLength).toBe(12_000);

    hub.beforeChunk = undefined;
    await downloadModel(request());
    expect(finalFiles(port)).toEqual(FILES.map((f) => `${DIR}/${f}`).sort());
    expect(port.files.get(`${DIR}/onnx/model.onnx`)).toEqual(CONTENT['onnx/model.onnx']);
  });

  test('a signal aborted before the start fetches nothing', async () => {
    const { hub, request } = setup();
    const ctl = new AbortController();
    ctl.abort();
    expect((await failure(downloadModel(request({ signal: ctl.signal })))).code).toBe('cancelled');
    expect(hub.requests).toEqual([]);
  });

  test('HTTP 404 is a download_failed naming the status, the URL and what to check', async () => {
    const { port, request } = setup();
    const err = await failure(downloadModel(request({ modelId: 'Xenova/no-such-model' })));
    expect(err.code).toBe('download_failed');
    expect(err.data).toMatchObject({ reason: 'http', status: 404, file: 'config.json' });
    expect(err.message).toBe(
      'Downloading config.json failed: HTTP 404 from https://huggingface.co/Xenova/no-such-model/resolve/main/config.json: the file does not exist there (check the model id).',
    );
    expect(port.files.size).toBe(0);
  });

  test('an unreachable network and a failing disk are told apart', async () => {
    const { request } = setup();
    const down = await failure(
      downloadModel(request({ fetch: async () => Promise.reject(new TypeError('Failed to fetch')) })),
    );
    expect(down.data).toMatchObject({ reason: 'network' });
    expect(down.message).toMatch(/could not reach https:\/\/huggingface\.co \(Failed to fetch\)/);

    const { port, request: again } = setup();
    port.failWrites = 'ENOSPC: no space left on device';
    const full = await failure(downloadModel(again()));
    expect(full.data).toMatchObject({ reason: 'disk' });
    expect(full.message).toBe(`Could not write the model file ${DIR}/config.json.part: ENOSPC: no space left on device`);
  });

  test('without content-length the total stays unknown until the end, and the file is still placed', async () => {
    const { hub, port, events, request } = setup();
    hub.noLength = true;
    await downloadModel(request());
    expect(port.files.get(`${DIR}/onnx/model.onnx`)).toEqual(CONTENT['onnx/model.onnx']);
    expect(events.filter((e) => e.fileLoaded < (e.fileTotal ?? Infinity)).every((e) => e.total === null)).toBe(true);
    expect(events[events.length - 1]).toMatchObject({ loaded: TOTAL, total: TOTAL });
  });

  test('a model id that could climb out of the folder is refused', async () => {
    const { request } = setup();
    for (const id of ['../etc', 'a/../../b', 'noslash', '/abs/x']) {
      expect((await failure(downloadModel(request({ modelId: id })))).code).toBe('invalid_argument');
    }
  });
  test('a file with its own source (a runtime wasm on a CDN) comes from that URL into the same folder, resumable', async () => {
    const { hub, port, request } = setup();
    const WASM = 'onnxruntime-web@1.2.3/ort-wasm-simd-threaded.wasm';
    const URL_ = 'https://cdn.jsdelivr.net/npm/onnxruntime-web@1.2.3/dist/ort-wasm-simd-threaded.wasm';
    const wasm = bytes(12_345, 9);
    CONTENT[WASM] = wasm;
    hub.mirrors[URL_] = WASM;
    try {
      hub.dropAfter.set(WASM, 5_000);
      const cut = await failure(downloadModel(request({ files: [...FILES, WASM], sources: { [WASM]: URL_ } })));
      expect(cut.code).toBe('download_failed');
      hub.dropAfter.clear();
      hub.requests.length = 0;
      await downloadModel(request({ files: [...FILES, WASM], sources: { [WASM]: URL_ } }));
      expect(hub.requests).toEqual([{ url: URL_, range: 'bytes=5000-' }]);
      expect(port.files.get(`${DIR}/${WASM}`)).toEqual(wasm);

      const unreachable = await failure(
        downloadModel(request({ files: [WASM + '.x'], sources: { [WASM + '.x']: URL_ }, fetch: async () => Promise.reject(new TypeError('Failed to fetch')) })),
      );
      expect(unreachable.message).toMatch(/could not reach https:\/\/cdn\.jsdelivr\.net \(Failed to fetch\)/);
    } finally {
      delete CONTENT[WASM];
    }
  });
});

describe('downloadModel with expected sizes and sha256 (the hub listing)', () => {
  const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
  /** The weights with a digest (LFS), the small files with their size only (kept in git). */
  const expected = (): Record<string, ExpectedFile> =>
    Object.fromEntries(FILES.map((f) => [f, f === 'onnx/model.onnx' ? { size: CONTENT[f].byteLength, sha256: sha(CONTENT[f]) } : { size: CONTENT[f].byteLength }]));

  test('every file is checked before it takes its final name; the total is known from the first event', async () => {
    const { events, request } = setup({ expected: expected() });
    const result = await downloadModel(request());
    expect(Object.fromEntries(result.files.map((f) => [f.file, f.verified]))).toEqual({ 'config.json': 'size', 'tokenizer_config.json': 'size', 'tokenizer.json': 'size', 'onnx/model.onnx': 'sha256' });
    expect(events[0].total).toBe(TOTAL);
  });

  test('a checksum failure deletes the bad file, keeps the verified ones and says so; a clean retry succeeds', async () => {
    const { hub, port, request } = setup({ expected: expected() });
    const good = CONTENT['onnx/model.onnx'];
    const bad = good.slice();
    bad[1000] ^= 0xff; // same size, one byte flipped
    CONTENT['onnx/model.onnx'] = bad;
    try {
      const err = await failure(downloadModel(request()));
      expect(err.code).toBe('download_failed');
      expect(err.data).toMatchObject({ reason: 'checksum', file: 'onnx/model.onnx', sha256: sha(bad), expected: { sha256: sha(good) } });
      expect(err.message).toMatch(/onnx\/model\.onnx has sha256 [0-9a-f]{64}, expected [0-9a-f]{64}: .*deleted\. The 3 files already verified are kept\./);
    } finally {
      CONTENT['onnx/model.onnx'] = good;
    }
    expect(port.files.has(`${DIR}/onnx/model.onnx`)).toBe(false);
    expect(port.files.has(`${DIR}/onnx/model.onnx.part`)).toBe(false);
    expect(finalFiles(port)).toEqual([`${DIR}/config.json`, `${DIR}/tokenizer.json`, `${DIR}/tokenizer_config.json`]);

    hub.requests.length = 0;
    await downloadModel(request());
    expect(hub.requests.map((r) => r.url.split('/resolve/main/')[1])).toEqual(['onnx/model.onnx']);
    expect(port.files.get(`${DIR}/onnx/model.onnx`)).toEqual(good);
  });

  test('a corrupt file already under its final name is not trusted: it is fetched anew', async () => {
    const { hub, port, request } = setup({ expected: expected() });
    await port.append(`${DIR}/onnx/model.onnx`, bytes(45_210, 77));
    const result = await downloadModel(request());
    expect(result.files.find((f) => f.file === 'onnx/model.onnx')).toMatchObject({ skipped: false, verified: 'sha256' });
    expect(hub.requests.map((r) => r.url.split('/resolve/main/')[1])).toContain('onnx/model.onnx');
    expect(port.files.get(`${DIR}/onnx/model.onnx`)).toEqual(CONTENT['onnx/model.onnx']);
  });

  test('a file of the wrong size is a checksum failure too, and a bad part as long as the file is started over', async () => {
    const { hub, port, request } = setup({ expected: { ...expected(), 'config.json': { size: 651 } } });
    const err = await failure(downloadModel(request()));
    expect(err.data).toMatchObject({ reason: 'checksum', file: 'config.json' });
    expect(err.message).toMatch(/config\.json is 650 bytes, expected 651/);
    expect(port.files.size).toBe(0);

    await port.append(`${DIR}/onnx/model.onnx.part`, bytes(45_210, 5));
    hub.requests.length = 0;
    await downloadModel(request({ expected: expected() }));
    expect(hub.requests.find((r) => r.url.endsWith('/onnx/model.onnx'))?.range).toBeNull();
    expect(port.files.get(`${DIR}/onnx/model.onnx`)).toEqual(CONTENT['onnx/model.onnx']);
  });

  test('a complete part left by a run stopped before the rename is checked and placed without a request', async () => {
    const { hub, port, request } = setup({ expected: expected() });
    await port.append(`${DIR}/onnx/model.onnx.part`, CONTENT['onnx/model.onnx']);
    const result = await downloadModel(request());
    expect(result.files.find((f) => f.file === 'onnx/model.onnx')).toMatchObject({ verified: 'sha256' });
    expect(hub.requests.some((r) => r.url.endsWith('/onnx/model.onnx'))).toBe(false);
    expect(port.files.get(`${DIR}/onnx/model.onnx`)).toEqual(CONTENT['onnx/model.onnx']);
  });
});
