/**
 * The plugin's MiniLM loader, bundled exactly as main.js bundles it (scripts/minilm-bundle.mjs: the worker's
 * code, with the transformers.js browser build on onnxruntime-web's wasm bundle, carried as a string), runs
 * here in Node on the wasm backend: a generated tiny model and the real ORT wasm from node_modules are read
 * through the in-memory vault adapter, and its vectors must equal those of the bridge's path (transformers.js'
 * Node build on onnxruntime-node) for the same texts. Nothing may be fetched: the adapter is the only source.
 * Node has no Web Worker, so the loader falls back to the main thread; with a Worker twin on a Node thread
 * it starts the worker from a Blob URL instead, and a worker that cannot be made falls back again.
 */
import { resolveObjectURL } from 'buffer';
import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'fs';
import os from 'os';
import path from 'path';
import type { loadMiniLm as LoadMiniLm } from '../../plugin/minilm/load-minilm';
import { createTransformersEmbedder, DEFAULT_MODEL_ID } from '../../shared/index/embedders/transformers-embedder';
import { writeTinyModelUnder } from '../fixtures/tiny-model/generate';
import { loadTransformers } from '../index/embedders/load-transformers';
import { FakeAdapter } from './fake-obsidian';
import { ThreadWorkerTwin } from './worker-twins';

const ROOT = path.resolve(__dirname, '../..');
const ORT_VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/onnxruntime-web/package.json'), 'utf8')) as { version: string }).version;
// A Uint8Array copy: the adapter twin's readBinary hands over .buffer, which for a Buffer is a shared pool.
const WASM = new Uint8Array(readFileSync(path.join(ROOT, 'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm')));
const FOLDER = `.lithos/models/${DEFAULT_MODEL_ID}`;
const TEXTS = ['The cat sat on the mat.', 'Quantum physics and entanglement.', 'the cat', 'A longer sentence about cats, mats and physics that is cut at the token limit '.repeat(4)];

let dir: string;
let loader: { loadMiniLm: typeof LoadMiniLm; miniLmFiles(version?: string | null): string[] };
let mainThread: Float32Array[];
let modelDir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'lithos-minilm-web-'));
  const out = path.join(dir, 'loader.cjs');
  execFileSync(process.execPath, ['scripts/minilm-bundle.mjs', out, 'cjs'], { cwd: ROOT, stdio: 'pipe' });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle under test is plain CommonJS
  loader = require(out) as typeof loader;
  modelDir = (await writeTinyModelUnder(path.join(dir, 'models'), DEFAULT_MODEL_ID, { hidden: 24, seed: 7 })).dir;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bundle carries its own copy of LithosError, so the rejection is read by its code and message. */
async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err: unknown = await p.then(() => null, (e: unknown) => e);
  expect(err).toMatchObject({ name: 'LithosError', code: expect.any(String) });
  return err as { code: string; message: string };
}

/** The vault adapter twin holding the model folder as the plugin's downloader leaves it. */
function vaultWithModel(wasm: Uint8Array = WASM): FakeAdapter {
  const adapter = new FakeAdapter();
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d)) {
      const abs = path.join(d, name);
      if (statSync(abs).isDirectory()) walk(abs, `${rel}${name}/`);
      else adapter.put(`${FOLDER}/${rel}${name}`, new Uint8Array(readFileSync(abs)));
    }
  };
  walk(modelDir, '');
  adapter.put(`${FOLDER}/onnxruntime-web@${ORT_VERSION}/ort-wasm-simd-threaded.wasm`, wasm);
  return adapter;
}

test('the bundle carries the installed onnxruntime-web version and lists its wasm with the model files', () => {
  expect(loader.miniLmFiles()).toEqual(['config.json', 'tokenizer_config.json', 'tokenizer.json', `onnxruntime-web@${ORT_VERSION}/ort-wasm-simd-threaded.wasm`, 'onnx/model.onnx']);
});

test('onnxruntime-web (wasm, in the plugin bundle) embeds like onnxruntime-node (the bridge) within 1e-5', async () => {
  const fetched: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request) => {
    fetched.push(input instanceof Request ? input.url : String(input));
    throw new Error('network access while embedding');
  };
  try {
    const web = await loader.loadMiniLm({ adapter: vaultWithModel(), root: '.lithos/models' });
    const node = await createTransformersEmbedder({ loadLibrary: loadTransformers, localModelPath: path.join(dir, 'models'), allowRemote: false });
    expect([web.runsIn, web.fallback]).toEqual(['main-thread', 'this app has no Web Workers']);
    expect(web.spaceId).toBe('minilm-l6-v2');
    expect(web.spaceId).toBe(node.spaceId);
    expect(web.dimensions).toBe(24);
    const a = await web.embed(TEXTS);
    mainThread = a;
    const b = await node.embed(TEXTS);
    expect(a).toHaveLength(TEXTS.length);
    let worst = 0;
    for (let i = 0; i < TEXTS.length; i++) for (let d = 0; d < 24; d++) worst = Math.max(worst, Math.abs(a[i][d] - b[i][d]));
    expect(worst).toBeLessThan(1e-5);
    // Different texts, different vectors: the comparison is not between two zero vectors.
    expect(Math.abs(a[0][0] - a[1][0]) + Math.abs(a[0][1] - a[1][1])).toBeGreaterThan(1e-3);
    await web.dispose();
    await node.dispose();
  } finally {
    globalThis.fetch = realFetch;
  }
  expect(fetched).toEqual([]);
});

test('a folder without the runtime wasm is model_missing naming the file; a missing model file is model_missing too', async () => {
  const noWasm = vaultWithModel();
  await noWasm.remove(`${FOLDER}/onnxruntime-web@${ORT_VERSION}/ort-wasm-simd-threaded.wasm`);
  const e = await failure(loader.loadMiniLm({ adapter: noWasm, root: '.lithos/models' }));
  expect(e.code).toBe('model_missing');
  expect(e.message).toContain(`${FOLDER}/onnxruntime-web@${ORT_VERSION}/ort-wasm-simd-threaded.wasm is missing`);

  const noWeights = vaultWithModel();
  await noWeights.remove(`${FOLDER}/onnx/model.onnx`);
  const m = await failure(loader.loadMiniLm({ adapter: noWeights, root: '.lithos/models' }));
  expect(m.code).toBe('model_missing');
  expect(m.message).toContain(`was not found in .lithos/models/${DEFAULT_MODEL_ID}`);
});

test('corrupt weights are embedding_failed with the runtime\'s reason', async () => {
  const corrupt = vaultWithModel();
  corrupt.put(`${FOLDER}/onnx/model.onnx`, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
  const e = await failure(loader.loadMiniLm({ adapter: corrupt, root: '.lithos/models' }));
  expect(e.code).toBe('embedding_failed');
  expect(e.message).toMatch(/^Could not load embedding model "Xenova\/all-MiniLM-L6-v2" from \.lithos\/models\/Xenova\/all-MiniLM-L6-v2: /);
});

test('a wasm binary the runtime refuses (truncated download) is embedding_failed, not a hang or a crash', async () => {
  // ORT instantiates its wasm once per loaded bundle: a fresh copy of the bundle gets a fresh runtime.
  const copy = path.join(dir, 'loader-fresh.cjs');
  writeFileSync(copy, readFileSync(path.join(dir, 'loader.cjs')));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle under test is plain CommonJS
  const fresh = require(copy) as typeof loader;
  // Emscripten prints the compile error before rejecting; the rejection is what is checked.
  const printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const e = await failure(fresh.loadMiniLm({ adapter: vaultWithModel(WASM.slice(0, 100_000)), root: '.lithos/models' })).finally(() => printed.mockRestore());
  expect(e.code).toBe('embedding_failed');
  expect(e.message).toMatch(/^Could not load embedding model "Xenova\/all-MiniLM-L6-v2" from \.lithos\/models\/Xenova\/all-MiniLM-L6-v2: .+/);
});

/** Runs `fn` with a global Worker (Obsidian's renderer has one; Node does not). */
async function withWorker<T>(worker: unknown, fn: () => Promise<T>): Promise<T> {
  const g = globalThis as { Worker?: unknown };
  g.Worker = worker;
  try {
    return await fn();
  } finally {
    delete g.Worker;
  }
}

test('with Web Workers the model runs in one started from a Blob URL (revoked once started), with the same vectors', async () => {
  const made = ThreadWorkerTwin.made.length;
  const web = await withWorker(ThreadWorkerTwin, () => loader.loadMiniLm({ adapter: vaultWithModel(), root: '.lithos/models' }));
  const twin = ThreadWorkerTwin.made[made];
  expect(ThreadWorkerTwin.made).toHaveLength(made + 1);
  expect(twin.url).toMatch(/^blob:/);
  expect(resolveObjectURL(twin.url)).toBeUndefined();
  expect([web.runsIn, web.fallback, web.spaceId, web.dimensions]).toEqual(['worker', null, 'minilm-l6-v2', 24]);
  const vectors = await web.embed(TEXTS);
  expect(vectors.map((v) => Array.from(v))).toEqual(mainThread.map((v) => Array.from(v)));
  await web.dispose();
  expect(twin.terminated).toBe(true);
  expect((await failure(web.embed(['after']))).code).toBe('cancelled');
});

test('a worker that cannot be made falls back to the main thread and says why; a model error in the worker does not', async () => {
  class Refused {
    constructor() {
      throw new Error('Refused to create a worker from a blob: URL');
    }
  }
  const web = await withWorker(Refused, () => loader.loadMiniLm({ adapter: vaultWithModel(), root: '.lithos/models' }));
  expect([web.runsIn, web.fallback]).toEqual(['main-thread', 'the worker did not start (Refused to create a worker from a blob: URL)']);
  expect((await web.embed([TEXTS[0]]))[0]).toEqual(mainThread[0]);
  await web.dispose();

  const corrupt = vaultWithModel();
  corrupt.put(`${FOLDER}/onnx/model.onnx`, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
  const made = ThreadWorkerTwin.made.length;
  const e = await withWorker(ThreadWorkerTwin, () => failure(loader.loadMiniLm({ adapter: corrupt, root: '.lithos/models' })));
  expect(e.code).toBe('embedding_failed');
  expect(e.message).toMatch(/^Could not load embedding model "Xenova\/all-MiniLM-L6-v2" from \.lithos\/models\/Xenova\/all-MiniLM-L6-v2: /);
  expect(ThreadWorkerTwin.made[made].terminated).toBe(true);
});
