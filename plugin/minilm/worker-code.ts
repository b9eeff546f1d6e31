/**
 * The MiniLM worker bundle (worker-main.ts with transformers.js and onnxruntime-web), built before main.js by
 * scripts/onnx-web-esbuild.mjs and defined into it as one string: the plugin stays a single main.js, and the
 * libraries are carried once, as this string, for the worker and the in-thread fallback alike.
 */
declare const LITHOS_MINILM_WORKER: string | undefined;

/** null where the code runs unbundled (unit tests): no worker bundle was built. */
export const MINILM_WORKER_CODE: string | null = typeof LITHOS_MINILM_WORKER === 'string' ? LITHOS_MINILM_WORKER : null;
