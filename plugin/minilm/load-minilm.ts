/**
 * all-MiniLM-L6-v2 inside the plugin: the downloaded folder read through the vault adapter and handed to a
 * Web Worker that runs transformers.js' browser build on onnxruntime-web (worker-main.ts), so model runs
 * never hold Obsidian's thread. Where a worker cannot run, the same code runs on the main thread
 * (in-thread-worker.ts). Remote loading is off and the worker's fetch serves only the files handed to it.
 */
import { LithosError } from '../../shared/errors';
import { modelDir } from '../../shared/index/embedders/model-download';
import { transformersModelFiles } from '../../shared/index/embedders/model-files';
import { DEFAULT_MODEL_ID } from '../../shared/index/embedders/transformers-embedder';
import type { ReadAdapter } from './adapter-fetch';
import { InThreadWorker } from './in-thread-worker';
import type { ExpectedFile } from '../../shared/index/embedders/model-download';
import { ORT_WASM_EXPECTED, ORT_WEB_VERSION, ortWasmFile, ortWasmUrl } from './ort-wasm';
import { startMiniLmWorker, WORKER_UNAVAILABLE, type MiniLmEmbedder, type WorkerLike } from './worker-client';
import { MINILM_WORKER_CODE } from './worker-code';
import type { InitRequest, WorkerRequest } from './worker-protocol';

export type { MiniLmEmbedder } from './worker-client';

/**
 * The files the plugin needs in `<folder>/Xenova/all-MiniLM-L6-v2/`: the model as the bridge loads it
 * (fp32), plus the runtime's wasm before the weights (the progress total waits for the last file's size).
 */
export function miniLmFiles(version: string | null = ORT_WEB_VERSION): string[] {
  const model = transformersModelFiles('fp32');
  if (version === null) return model;
  return [...model.slice(0, -1), ortWasmFile(version), ...model.slice(-1)];
}

/** Where the downloader fetches the files that are not on the hub. */
export function miniLmSources(version: string | null = ORT_WEB_VERSION): Record<string, string> {
  return version === null ? {} : { [ortWasmFile(version)]: ortWasmUrl(version) };
}

/** What the files not on the hub must be (the wasm: the bundled package's size and sha256). */
export function miniLmExpected(version: string | null = ORT_WEB_VERSION, wasm = ORT_WASM_EXPECTED): Record<string, ExpectedFile> {
  return version === null || wasm === null ? {} : { [ortWasmFile(version)]: wasm };
}

export interface MiniLmLoadRequest {
  adapter: ReadAdapter;
  /** The Model folder setting (vault-relative). */
  root: string;
  /** 'auto' (default): a Web Worker where the app has them; 'main-thread': skip the worker (the browser proof's baseline). */
  where?: 'auto' | 'main-thread';
  loadTimeoutMs?: number;
  embedTimeoutMs?: number;
}

/** The wasm and the model files, read now (a missing wasm is `model_missing`); a missing model file is left to the library's message. */
async function readFolder(adapter: ReadAdapter, root: string, version: string): Promise<InitRequest> {
  const folder = modelDir(root, DEFAULT_MODEL_ID);
  const wasmPath = `${folder}/${ortWasmFile(version)}`;
  if (!(await adapter.exists(wasmPath))) {
    throw new LithosError('model_missing', `The ONNX runtime ${wasmPath} is missing; run Download in Settings → Lithos Memory → Embeddings.`, { path: wasmPath });
  }
  const files: Record<string, ArrayBuffer> = {};
  for (const name of transformersModelFiles('fp32')) {
    const path = `${folder}/${name}`;
    if (await adapter.exists(path)) files[path] = await adapter.readBinary(path);
  }
  return { type: 'init', root, wasm: await adapter.readBinary(wasmPath), files };
}

/** Why no Web Worker can be made here, or null. */
function workerBlocker(): string | null {
  if (typeof Worker !== 'function') return 'this app has no Web Workers';
  if (typeof Blob !== 'function' || typeof URL === 'undefined' || typeof URL.createObjectURL !== 'function') return 'this app cannot make Blob URLs';
  return null;
}

/** A Web Worker running the bundle from a Blob URL; the URL is revoked once the start has settled. */
class BlobWorker implements WorkerLike {
  onmessage: WorkerLike['onmessage'] = null;
  onerror: WorkerLike['onerror'] = null;
  private readonly url: string;
  private readonly worker: Worker;

  constructor(code: string) {
    this.url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    try {
      this.worker = new Worker(this.url);
    } catch (err) {
      this.revoke();
      throw err;
    }
    this.worker.onmessage = (e) => this.onmessage?.({ data: e.data });
    this.worker.onerror = (e) => this.onerror?.({ message: e.message });
  }

  postMessage(msg: WorkerRequest, transfer: ArrayBuffer[]): void {
    this.worker.postMessage(msg, transfer);
  }

  terminate(): void {
    this.worker.terminate();
  }

  revoke(): void {
    URL.revokeObjectURL(this.url);
  }
}

/** Loads the model now. `model_missing` when the runtime's wasm or a model file is not there; load failures are `embedding_failed`. */
export async function loadMiniLm(req: MiniLmLoadRequest): Promise<MiniLmEmbedder> {
  const version = ORT_WEB_VERSION;
  const code = MINILM_WORKER_CODE;
  if (version === null || code === null) throw new LithosError('embedding_failed', 'This build of the plugin carries no onnxruntime-web runtime.');
  const timeouts = { loadTimeoutMs: req.loadTimeoutMs, embedTimeoutMs: req.embedTimeoutMs };
  let init = await readFolder(req.adapter, req.root, version);
  let fallback = req.where === 'main-thread' ? 'asked to run on the main thread' : workerBlocker();
  if (fallback === null) {
    let started: BlobWorker | null = null;
    try {
      started = new BlobWorker(code);
      return await startMiniLmWorker(started, init, { runsIn: 'worker', ...timeouts });
    } catch (err) {
      // The model's own failures are the answer; only a worker that could not run falls back.
      if (err instanceof LithosError && err.code !== WORKER_UNAVAILABLE) throw err;
      fallback = `the worker did not start (${err instanceof Error ? err.message : String(err)})`;
      // The buffers went to the worker: read them again.
      init = await readFolder(req.adapter, req.root, version);
    } finally {
      started?.revoke();
    }
  }
  return startMiniLmWorker(new InThreadWorker(code), init, { runsIn: 'main-thread', fallback, ...timeouts });
}
