/**
 * all-MiniLM-L6-v2 inside the plugin: the downloaded folder read through the vault adapter, run by
 * transformers.js' browser build on onnxruntime-web (web-runtime.ts, loaded on first use). Remote
 * loading is off and the fetch it is given refuses URLs, so nothing is fetched at embed time.
 */
import { LithosError } from '../../shared/errors';
import { modelDir } from '../../shared/index/embedders/model-download';
import { transformersModelFiles } from '../../shared/index/embedders/model-files';
import { createTransformersEmbedder, DEFAULT_MODEL_ID, MINILM_SPACE_ID, type TransformersEmbedder } from '../../shared/index/embedders/transformers-embedder';
import { adapterFetch, type ReadAdapter } from './adapter-fetch';
import { ORT_WEB_VERSION, ortWasmFile, ortWasmUrl } from './ort-wasm';

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

export interface MiniLmLoadRequest {
  adapter: ReadAdapter;
  /** The Model folder setting (vault-relative). */
  root: string;
  /** Texts per ONNX run; each run holds the renderer's thread (default 1). */
  batchSize?: number;
}

/** Loads the model from the folder now. `model_missing` when the runtime's wasm is not there; load failures are `embedding_failed`. */
export async function loadMiniLm(req: MiniLmLoadRequest): Promise<TransformersEmbedder> {
  const version = ORT_WEB_VERSION;
  if (version === null) throw new LithosError('embedding_failed', 'This build of the plugin carries no onnxruntime-web runtime.');
  const folder = modelDir(req.root, DEFAULT_MODEL_ID);
  const wasmPath = `${folder}/${ortWasmFile(version)}`;
  if (!(await req.adapter.exists(wasmPath))) {
    throw new LithosError('model_missing', `The ONNX runtime ${wasmPath} is missing; run Download in Settings → Lithos Memory → Embeddings.`, { path: wasmPath });
  }
  const wasm = new Uint8Array(await req.adapter.readBinary(wasmPath));
  return createTransformersEmbedder({
    loadLibrary: async () => (await import('./web-runtime')).webTransformers(wasm),
    localModelPath: req.root,
    allowRemote: false,
    spaceId: MINILM_SPACE_ID,
    fetch: adapterFetch(req.adapter),
    batchSize: req.batchSize ?? 1,
  });
}
