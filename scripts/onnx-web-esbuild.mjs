// esbuild settings that put transformers.js' browser build and onnxruntime-web's CPU bundle into the
// plugin (esbuild.config.mjs) and into the bundles the tests and scripts/minilm-browser.mjs build.
import esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ortDir = path.join(root, 'node_modules', 'onnxruntime-web');

/** The installed onnxruntime-web version: its wasm binary must be exactly this build's. */
export const ORT_WEB_VERSION = createRequire(import.meta.url)(path.join(ortDir, 'package.json')).version;

/**
 * Size and sha256 of the installed package's wasm: the plugin downloads the same file from a CDN and keeps
 * it only if it is byte for byte this one (a CDN serving other bytes would run code inside Obsidian).
 */
const ortWasm = readFileSync(path.join(ortDir, 'dist', 'ort-wasm-simd-threaded.wasm'));
export const ORT_WASM_EXPECTED = { size: ortWasm.byteLength, sha256: createHash('sha256').update(ortWasm).digest('hex') };

/** Compile-time constants the plugin reads (plugin/minilm/ort-wasm.ts). */
export const onnxWebDefine = { LITHOS_ORT_WEB_VERSION: JSON.stringify(ORT_WEB_VERSION), LITHOS_ORT_WASM: JSON.stringify(ORT_WASM_EXPECTED) };

/** The bundle with the Emscripten glue inlined; it loads ort-wasm-simd-threaded.wasm (CPU only). */
const ORT_BUNDLE = path.join(ortDir, 'dist', 'ort.wasm.bundle.min.mjs');

// `process` exists in Obsidian's renderer, so both libraries would take Node code paths (file paths
// instead of fetch, onnxruntime-node): these tests are pinned to false, and the build fails if a
// library update no longer contains them.
const NODE_CHECKS = [
  { file: /[\\/]@huggingface[\\/]transformers[\\/]dist[\\/]transformers\.web\.js$/, text: 'var IS_NODE_ENV = IS_PROCESS_AVAILABLE && process?.release?.name === "node" && !IS_DENO_WEB_RUNTIME;', with: 'var IS_NODE_ENV = false;' },
];

export const onnxWebPlugin = {
  name: 'onnx-web',
  setup(build) {
    // transformers.js imports the WebGPU bundle; the CPU one is 40 KB smaller and needs the smallest wasm.
    build.onResolve({ filter: /^onnxruntime-web(\/webgpu|\/wasm)?$/ }, () => ({ path: ORT_BUNDLE }));
    for (const check of NODE_CHECKS) {
      build.onLoad({ filter: check.file }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(check.text)) {
          return { errors: [{ text: `onnx-web: "${check.text}" not found in ${args.path}; the library changed, review the patch` }] };
        }
        return { contents: source.replace(check.text, check.with), loader: 'js' };
      });
    }
  },
};

/**
 * The MiniLM worker (plugin/minilm/worker-main.ts with transformers.js and onnxruntime-web) as one classic
 * script, returned as a string: main.js carries it through `workerDefine` and starts it from a Blob URL.
 * `--watch` builds it once at start; a change to the worker's code needs a restart of the watch.
 */
export async function buildMiniLmWorker({ minify = true, nodeEnv = 'production' } = {}) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['plugin/minilm/worker-main.ts'],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify,
    legalComments: 'none',
    define: { ...onnxWebDefine, 'process.env.NODE_ENV': JSON.stringify(nodeEnv) },
    plugins: [onnxWebPlugin],
    // ORT's ESM bundle reads import.meta.url for its file paths; the wasm bytes are handed in, so none is used.
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'error',
  });
  return result.outputFiles[0].text;
}

/** The define that puts the worker's code into the bundle importing plugin/minilm/worker-code.ts. */
export function workerDefine(code) {
  return { LITHOS_MINILM_WORKER: JSON.stringify(code) };
}
