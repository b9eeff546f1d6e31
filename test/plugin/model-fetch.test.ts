/**
 * The model download's fetch in Obsidian: the page's fetch() (streamed, with progress) first, Obsidian's
 * requestUrl when fetch() fails as a network error (cross-origin rules in the renderer), never after a cancel.
 */
import { downloadModel, type StreamingFetch } from '../../shared/index/embedders/model-download';
import { transformersModelFiles } from '../../shared/index/embedders/model-files';
import { fetchWithFallback, type RequestUrlLike } from '../../plugin/model-fetch';
import { failure } from '../twins/error-code';
import { MemoryModelFiles } from '../twins/memory-model-files';
import { streamingHub } from '../twins/streaming-hub';

const MODEL = 'Xenova/all-MiniLM-L6-v2';
const FILES = transformersModelFiles('fp32');
const CONTENT: Record<string, Uint8Array> = Object.fromEntries(FILES.map((f, i) => [f, Uint8Array.from({ length: 900 + i * 700 }, (_, k) => (k * 7 + i) & 0xff)]));

/** requestUrl's twin over the same hub: it answers with the whole body at once, as Obsidian's does. */
function requestUrlOver(fetchFn: StreamingFetch, calls: string[]): RequestUrlLike {
  return async ({ url, headers }) => {
    calls.push(url);
    const r = (await fetchFn(url, { headers: headers ?? {} })) as unknown as Response;
    const out: Record<string, string> = {};
    r.headers.forEach((v, k) => (out[k.toUpperCase()] = v)); // header names in any case
    return { status: r.status, headers: out, arrayBuffer: await r.arrayBuffer() };
  };
}

const corsRefused: StreamingFetch = async () => {
  throw new TypeError('Failed to fetch');
};

test('fetch() refused by the page: the download completes through requestUrl, and later files go there directly', async () => {
  const hub = streamingHub(MODEL, CONTENT);
  const calls: string[] = [];
  let fetchCalls = 0;
  const refusing: StreamingFetch = (url, init) => {
    fetchCalls++;
    return corsRefused(url, init);
  };
  const port = new MemoryModelFiles();
  const loaded: number[] = [];
  const r = await downloadModel({ modelId: MODEL, files: FILES, root: 'm', fetch: fetchWithFallback(refusing, requestUrlOver(hub.fetch, calls))!, port, onProgress: (p) => loaded.push(p.loaded) });
  expect(r.files.map((f) => f.bytes)).toEqual(FILES.map((f) => CONTENT[f].byteLength));
  for (const f of FILES) expect(await port.size(`m/${MODEL}/${f}`)).toBe(CONTENT[f].byteLength);
  expect(fetchCalls).toBe(1);
  expect(calls).toHaveLength(FILES.length);
  expect(loaded.at(-1)).toBe(Object.values(CONTENT).reduce((s, b) => s + b.byteLength, 0));
});

test('fetch() that works is used as is (streamed progress); an HTTP error is not a reason to switch', async () => {
  const hub = streamingHub(MODEL, CONTENT, 256);
  const calls: string[] = [];
  const port = new MemoryModelFiles();
  const events: number[] = [];
  await downloadModel({ modelId: MODEL, files: FILES, root: 'm', fetch: fetchWithFallback(hub.fetch, requestUrlOver(hub.fetch, calls))!, port, onProgress: (p) => events.push(p.fileLoaded) });
  expect(calls).toEqual([]);
  expect(events.filter((n) => n > 0 && n < 900).length).toBeGreaterThan(2); // chunk by chunk, not file by file

  const missing = await failure(downloadModel({ modelId: 'Nobody/none', files: ['config.json'], root: 'm', fetch: fetchWithFallback(hub.fetch, requestUrlOver(hub.fetch, calls))!, port: new MemoryModelFiles() }));
  expect(missing.code).toBe('download_failed');
  expect(calls).toEqual([]);
});

test('a cancelled download is not retried through requestUrl', async () => {
  const calls: string[] = [];
  const hub = streamingHub(MODEL, CONTENT);
  const abort = new AbortController();
  abort.abort();
  const aborting: StreamingFetch = async () => {
    throw new TypeError('aborted while refused');
  };
  const err = await failure(downloadModel({ modelId: MODEL, files: FILES, root: 'm', fetch: fetchWithFallback(aborting, requestUrlOver(hub.fetch, calls))!, port: new MemoryModelFiles(), signal: abort.signal }));
  expect(err.code).toBe('cancelled');
  expect(calls).toEqual([]);
});

test('neither fetch() nor requestUrl: no downloader', () => {
  expect(fetchWithFallback(null, null)).toBeNull();
});
