// Bundles the plugin's MiniLM loader (plugin/minilm/load-minilm.ts) on its own, with the same onnx-web
// settings as main.js: for the Node spec (CJS, test/plugin/minilm-web-runtime.test.ts) and for the
// browser proof (IIFE, scripts/minilm-browser.mjs).
//   node scripts/minilm-bundle.mjs <outfile> [cjs|iife]
import esbuild from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onnxWebDefine, onnxWebPlugin } from './onnx-web-esbuild.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `format: 'iife'` exposes the loader's exports as `globalThis.LithosMiniLm`. */
export async function bundleMiniLm(outfile, format = 'cjs') {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['plugin/minilm/load-minilm.ts'],
    outfile,
    bundle: true,
    format,
    globalName: format === 'iife' ? 'LithosMiniLm' : undefined,
    platform: 'browser',
    target: 'es2020',
    external: ['obsidian'],
    define: { ...onnxWebDefine, 'process.env.NODE_ENV': '"production"' },
    plugins: [onnxWebPlugin],
    logLevel: 'error',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [outfile, format = 'cjs'] = process.argv.slice(2);
  if (!outfile || !['cjs', 'iife'].includes(format)) {
    console.error('usage: node scripts/minilm-bundle.mjs <outfile> [cjs|iife]');
    process.exit(2);
  }
  await bundleMiniLm(path.resolve(outfile), format);
}
