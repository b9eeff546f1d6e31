/**
 * transformers.js' browser build on onnxruntime-web's CPU (wasm) backend, inside the MiniLM worker bundle
 * (worker-main.ts; main.js carries that bundle as a string, so the libraries are not evaluated until MiniLM
 * is switched on). The ORT wasm binary (14 MB) is not bundled: the plugin reads it from the model folder and
 * the worker's init hands over the bytes.
 */
import type { TransformersLike } from '../../shared/index/embedders/transformers-embedder';

interface OrtWasmEnv {
  wasmBinary?: ArrayBufferLike | Uint8Array;
  wasmPaths?: unknown;
  numThreads?: number;
  proxy?: boolean;
}

interface WebLibrary extends TransformersLike {
  env: TransformersLike['env'] & { useBrowserCache: boolean; useFSCache: boolean; useWasmCache: boolean };
}

let loaded: Promise<TransformersLike> | null = null;

/**
 * The library, with ORT set to run from `wasmBinary`: one thread (threads need a cross-origin isolated
 * page, which Obsidian's is not), no proxy worker, no wasm or model fetched from anywhere. The first
 * call's bytes win: ORT instantiates its wasm once per page.
 */
export function webTransformers(wasmBinary: Uint8Array): Promise<TransformersLike> {
  loaded ??= load(wasmBinary).catch((err: unknown) => {
    loaded = null;
    throw err;
  });
  return loaded;
}

async function load(wasmBinary: Uint8Array): Promise<TransformersLike> {
  // The same module transformers.js imports (the build resolves both to one onnxruntime-web bundle).
  const ort = await import('onnxruntime-web/wasm');
  const wasm = ort.env.wasm as OrtWasmEnv;
  wasm.wasmBinary = wasmBinary;
  wasm.numThreads = 1;
  wasm.proxy = false;
  const lib = (await import('@huggingface/transformers')) as unknown as WebLibrary;
  // The library defaults wasmPaths to jsDelivr when it loads; the bytes above replace any fetch.
  wasm.wasmPaths = undefined;
  lib.env.useWasmCache = false;
  // Model files come from the vault through env.fetch, not from the page's Cache Storage or a disk cache.
  lib.env.useBrowserCache = false;
  lib.env.useFSCache = false;
  return lib;
}
