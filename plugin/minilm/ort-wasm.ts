/**
 * The onnxruntime-web wasm binary the plugin's MiniLM runtime needs. It must be the build of the exact
 * onnxruntime-web version bundled into main.js (esbuild defines the version from the installed package),
 * so it is downloaded with the model from jsDelivr's copy of that npm version and kept in the model
 * folder under a versioned name: a plugin update with a newer runtime downloads its own.
 */
declare const LITHOS_ORT_WEB_VERSION: string | undefined;
declare const LITHOS_ORT_WASM: { size: number; sha256: string } | undefined;

/** null where the code runs unbundled (unit tests): no runtime to match a wasm to. */
export const ORT_WEB_VERSION: string | null = typeof LITHOS_ORT_WEB_VERSION === 'string' ? LITHOS_ORT_WEB_VERSION : null;

/**
 * Size and sha256 of that wasm in the npm package the bundle was built from: the download from the CDN is
 * kept only if it matches (as the hub's files are checked against the hub's listing).
 */
export const ORT_WASM_EXPECTED: { size: number; sha256: string } | null = typeof LITHOS_ORT_WASM === 'object' ? LITHOS_ORT_WASM : null;

/** The CPU build (SIMD; threads unused) that ort.wasm.bundle.min.mjs instantiates. */
const WASM_NAME = 'ort-wasm-simd-threaded.wasm';

/** Path inside the model folder, e.g. `onnxruntime-web@1.31.0/ort-wasm-simd-threaded.wasm`. */
export function ortWasmFile(version: string): string {
  return `onnxruntime-web@${version}/${WASM_NAME}`;
}

export function ortWasmUrl(version: string): string {
  return `https://cdn.jsdelivr.net/npm/onnxruntime-web@${version}/dist/${WASM_NAME}`;
}
