// Bundles the plugin's MiniLM loader (plugin/minilm/load-minilm.ts, carrying the worker's code as main.js
// does) or the worker's message handler (plugin/minilm/worker-handler.ts, with the libraries) on its own:
// for the Node specs (CJS, test/plugin/minilm-web-runtime.test.ts, minilm-worker-handler.test.ts) and for
// the browser proof (IIFE, scripts/minilm-browser.mjs).
//   node scripts/minilm-bundle.mjs <outfile> [cjs|iife] [loader|handler]
import esbuild from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMiniLmWorker, onnxWebDefine, onnxWebPlugin, workerDefine } from './onnx-web-esbuild.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const ENTRIES = { loader: 'plugin/minilm/load-minilm.ts', handler: 'plugin/minilm/worker-handler.ts' };

/** `format: 'iife'` exposes the entry's exports as `globalThis.LithosMiniLm`. */
export async function bundleMiniLm(outfile, format = 'cjs', entry = 'loader') {
  const worker = entry === 'loader' ? workerDefine(await buildMiniLmWorker()) : {};
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [ENTRIES[entry]],
    outfile,
    bundle: true,
    format,
    globalName: format === 'iife' ? 'LithosMiniLm' : undefined,
    platform: 'browser',
    target: 'es2020',
    external: ['obsidian'],
    define: { ...onnxWebDefine, ...worker, 'process.env.NODE_ENV': '"production"' },
    plugins: [onnxWebPlugin],
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'error',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [outfile, format = 'cjs', entry = 'loader'] = process.argv.slice(2);
  if (!outfile || !['cjs', 'iife'].includes(format) || !(entry in ENTRIES)) {
    console.error('usage: node scripts/minilm-bundle.mjs <outfile> [cjs|iife] [loader|handler]');
    process.exit(2);
  }
  await bundleMiniLm(path.resolve(outfile), format, entry);
}
