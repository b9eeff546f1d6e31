// Proof in a real browser that the plugin's MiniLM loader (plugin/minilm/load-minilm.ts, bundled with
// main.js's onnx-web settings) embeds in a page as onnxruntime-node does in Node: a generated tiny
// BERT-shaped model and the installed ORT wasm are served from a localhost server, read by the page
// through an adapter like the vault's, embedded on onnxruntime-web's wasm backend (1 thread, no
// cross-origin isolation), and the vectors compared with Node's. Not part of npm test (needs Chromium).
//   node scripts/minilm-browser.mjs            (CHROMIUM=/path/to/chrome to use another browser)
/* global URL, fetch, performance, navigator -- Node's and the page's web globals */
import esbuild from 'esbuild';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleMiniLm } from './minilm-bundle.mjs';
import { ORT_WEB_VERSION } from './onnx-web-esbuild.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const MODEL_ID = 'Xenova/all-MiniLM-L6-v2';
const WASM_FILE = `onnxruntime-web@${ORT_WEB_VERSION}/ort-wasm-simd-threaded.wasm`;
const TEXTS = ['The cat sat on the mat.', 'Quantum physics and entanglement.', 'the cat', 'A longer sentence about cats, mats and physics. '.repeat(12)];

const work = path.join(root, '.lithos-tmp', 'minilm-browser');
await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });

// Node side: the tiny-model generator and the engine's embedder on @huggingface/transformers' Node build.
const nodeEntry = path.join(work, 'node-side.mjs');
await esbuild.build({
  absWorkingDir: root,
  stdin: {
    contents: `
      export { writeTinyModelUnder } from './test/fixtures/tiny-model/generate';
      export { createTransformersEmbedder } from './shared/index/embedders/transformers-embedder';`,
    resolveDir: root,
    loader: 'ts',
  },
  outfile: nodeEntry,
  bundle: true,
  format: 'esm',
  platform: 'node',
  external: ['@huggingface/transformers'],
  logLevel: 'error',
});
const node = await import(pathToFileURL(nodeEntry).href);
const models = path.join(work, 'vault', '.lithos', 'models');
const tiny = await node.writeTinyModelUnder(models, MODEL_ID, { hidden: 24, seed: 11 });
const nodeEmbedder = await node.createTransformersEmbedder({ loadLibrary: () => import('@huggingface/transformers'), localModelPath: models, allowRemote: false });
const nodeVectors = (await nodeEmbedder.embed(TEXTS)).map((v) => Array.from(v));
await nodeEmbedder.dispose();

// Browser side: the loader bundle, the page, and the vault folder (model + wasm) over HTTP.
await bundleMiniLm(path.join(work, 'loader.js'), 'iife');
const wasmPath = path.join(tiny.dir, ...WASM_FILE.split('/'));
await mkdir(path.dirname(wasmPath), { recursive: true });
await copyFile(path.join(root, 'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm'), wasmPath);
const PAGE = `<!doctype html><meta charset="utf-8"><title>lithos minilm</title><script src="/loader.js"></script>`;

const requests = [];
const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  requests.push(url.pathname);
  if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  const file = url.pathname === '/loader.js' ? path.join(work, 'loader.js') : url.pathname.startsWith('/vault/') ? path.join(work, 'vault', decodeURIComponent(url.pathname.slice(7))) : null;
  if (!file || !file.startsWith(work) || !existsSync(file) || !(await stat(file)).isFile()) return res.writeHead(404).end('not found');
  res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream' }).end(await readFile(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const { chromium } = await import('playwright-core');
if (!existsSync(CHROMIUM)) {
  console.error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM=/path/to/chrome).`);
  process.exit(1);
}
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
let exitCode = 0;
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(base + '/');
  const result = await page.evaluate(async (texts) => {
    // The vault adapter's two calls the loader makes, answered by the server's copy of the vault.
    const adapter = {
      exists: async (p) => (await fetch('/vault/' + p)).ok,
      readBinary: async (p) => (await fetch('/vault/' + p)).arrayBuffer(),
    };
    const t0 = performance.now();
    const embedder = await globalThis.LithosMiniLm.loadMiniLm({ adapter, root: '.lithos/models' });
    const t1 = performance.now();
    const vectors = await embedder.embed(texts);
    const t2 = performance.now();
    return {
      userAgent: navigator.userAgent,
      crossOriginIsolated: globalThis.crossOriginIsolated,
      spaceId: embedder.spaceId,
      dimensions: embedder.dimensions,
      loadMs: Math.round(t1 - t0),
      embedMs: Math.round(t2 - t1),
      vectors: vectors.map((v) => Array.from(v)),
    };
  }, TEXTS);
  let worst = 0;
  for (let i = 0; i < TEXTS.length; i++) for (let d = 0; d < nodeVectors[i].length; d++) worst = Math.max(worst, Math.abs(result.vectors[i][d] - nodeVectors[i][d]));
  // The browser's own favicon probe aside, the page may ask for the page, the bundle and vault files only.
  const outside = requests.filter((p) => p !== '/' && p !== '/loader.js' && p !== '/favicon.ico' && !p.startsWith('/vault/'));
  const ok = worst < 1e-5 && result.vectors.length === TEXTS.length && errors.length === 0 && outside.length === 0;
  console.log(`browser:            ${result.userAgent}`);
  console.log(`onnxruntime-web:    ${ORT_WEB_VERSION} (wasm backend, 1 thread), crossOriginIsolated=${result.crossOriginIsolated}`);
  console.log(`space:              ${result.spaceId}, ${result.dimensions} dims (generated tiny model, seed 11)`);
  console.log(`load (page):        ${result.loadMs} ms (library + 14 MB wasm + model)`);
  console.log(`embed (page):       ${result.embedMs} ms for ${TEXTS.length} texts`);
  console.log(`requests:           ${requests.length}, other than page, bundle and vault files: ${outside.length ? outside.join(', ') : 'none'}`);
  console.log(`max |page - node|:  ${worst.toExponential(2)} over ${TEXTS.length}×${result.dimensions} values`);
  console.log(`first vector page:  ${result.vectors[0].slice(0, 4).map((x) => x.toFixed(6)).join(', ')}`);
  console.log(`first vector node:  ${nodeVectors[0].slice(0, 4).map((x) => x.toFixed(6)).join(', ')}`);
  if (errors.length) console.log(`page errors:        ${errors.join(' | ')}`);
  console.log(ok ? 'OK: the page embeds as onnxruntime-node does' : 'MISMATCH');
  if (!ok) exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
process.exit(exitCode);
