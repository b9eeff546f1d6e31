// Proof in a real browser that the plugin's MiniLM loader (plugin/minilm/load-minilm.ts, bundled with
// main.js's onnx-web settings and the worker's code) embeds in a Web Worker started from a Blob URL as
// onnxruntime-node does in Node: a generated tiny BERT-shaped model and the installed ORT wasm are served
// from a localhost server, read by the page through an adapter like the vault's, embedded on
// onnxruntime-web's wasm backend (1 thread, no cross-origin isolation), and the vectors compared with
// Node's. Then a generated model with about the real model's multiply-adds per token (384 wide, 80 dense
// layers) embeds 256-token chunks in the worker and, for comparison, on the main thread, while a timer
// probe and a long-task observer measure how long the page's thread is held. Not part of npm test.
//   node scripts/minilm-browser.mjs            (CHROMIUM=/path/to/chrome to use another browser)
/* global URL, fetch, performance, navigator, setTimeout, PerformanceObserver -- Node's and the page's web globals */
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
/** Chunks cut at the 256-token limit, like the longest the indexer makes. */
const CHUNKS = Array.from({ length: 8 }, (_, i) => `Chunk ${i} about cats, mats, physics and quantum entanglement. `.repeat(40));
const HEAVY = { hidden: 384, layers: 80, seed: 5 };

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
const heavyModels = path.join(work, 'vault', '.lithos', 'heavy');
const heavy = await node.writeTinyModelUnder(heavyModels, MODEL_ID, HEAVY);

// Browser side: the loader bundle, the page, and the vault folder (model + wasm) over HTTP.
await bundleMiniLm(path.join(work, 'loader.js'), 'iife');
for (const dir of [tiny.dir, heavy.dir]) {
  const wasmPath = path.join(dir, ...WASM_FILE.split('/'));
  await mkdir(path.dirname(wasmPath), { recursive: true });
  await copyFile(path.join(root, 'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm'), wasmPath);
}
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
  const result = await page.evaluate(async ({ texts, chunks }) => {
    // The vault adapter's two calls the loader makes, answered by the server's copy of the vault.
    const adapter = {
      exists: async (p) => (await fetch('/vault/' + p)).ok,
      readBinary: async (p) => (await fetch('/vault/' + p)).arrayBuffer(),
    };
    /** How long the page's thread is held: the largest gap between 0 ms timer ticks, and long tasks (≥ 50 ms). */
    const probe = () => {
      let last = performance.now();
      let maxGap = 0;
      let on = true;
      const tick = () => {
        const now = performance.now();
        maxGap = Math.max(maxGap, now - last);
        last = now;
        if (on) setTimeout(tick, 0);
      };
      setTimeout(tick, 0);
      const long = [];
      const observer = new PerformanceObserver((list) => long.push(...list.getEntries().map((e) => e.duration)));
      observer.observe({ type: 'longtask' });
      return async () => {
        await new Promise((r) => setTimeout(r, 20));
        on = false;
        long.push(...observer.takeRecords().map((e) => e.duration));
        observer.disconnect();
        return { maxGap: Math.round(maxGap), longTasks: long.length, maxLongTask: Math.round(Math.max(0, ...long)) };
      };
    };
    const { loadMiniLm } = globalThis.LithosMiniLm;
    const t0 = performance.now();
    const embedder = await loadMiniLm({ adapter, root: '.lithos/models' });
    const t1 = performance.now();
    const vectors = await embedder.embed(texts);
    const t2 = performance.now();
    const equal = { runsIn: embedder.runsIn, fallback: embedder.fallback, spaceId: embedder.spaceId, dimensions: embedder.dimensions, loadMs: Math.round(t1 - t0), embedMs: Math.round(t2 - t1), vectors: vectors.map((v) => Array.from(v)) };
    await embedder.dispose();

    // The MiniLM-sized model, as the plugin's switch drives each: the worker gets a note's chunks in one
    // request; on the main thread, one chunk per run with a turn for the page in between.
    const heavy = {};
    for (const where of ['auto', 'main-thread']) {
      const loadProbe = probe();
      const l0 = performance.now();
      const e = await loadMiniLm({ adapter, root: '.lithos/heavy', where });
      const loadMs = performance.now() - l0;
      const load = await loadProbe();
      await e.embed([chunks[0]]);
      const embedProbe = probe();
      const e0 = performance.now();
      const out = [];
      if (e.runsIn === 'worker') out.push(...(await e.embed(chunks)));
      else for (const c of chunks) {
        await new Promise((r) => setTimeout(r, 0));
        out.push(...(await e.embed([c])));
      }
      const embedMs = performance.now() - e0;
      heavy[e.runsIn] = { loadMs: Math.round(loadMs), load, embedMs: Math.round(embedMs), perChunk: Math.round(embedMs / chunks.length), embed: await embedProbe(), vectors: out.map((v) => Array.from(v)) };
      await e.dispose();
    }
    return { userAgent: navigator.userAgent, crossOriginIsolated: globalThis.crossOriginIsolated, equal, heavy };
  }, { texts: TEXTS, chunks: CHUNKS });
  const { equal, heavy } = result;
  let worst = 0;
  for (let i = 0; i < TEXTS.length; i++) for (let d = 0; d < nodeVectors[i].length; d++) worst = Math.max(worst, Math.abs(equal.vectors[i][d] - nodeVectors[i][d]));
  let heavyWorst = 0;
  for (let i = 0; i < CHUNKS.length; i++) for (let d = 0; d < HEAVY.hidden; d++) heavyWorst = Math.max(heavyWorst, Math.abs(heavy.worker.vectors[i][d] - heavy['main-thread'].vectors[i][d]));
  // The browser's own favicon probe aside, the page may ask for the page, the bundle and vault files only.
  const outside = requests.filter((p) => p !== '/' && p !== '/loader.js' && p !== '/favicon.ico' && !p.startsWith('/vault/'));
  const inWorker = equal.runsIn === 'worker' && heavy.worker !== undefined;
  const ok = inWorker && worst < 1e-5 && heavyWorst < 1e-5 && equal.vectors.length === TEXTS.length && errors.length === 0 && outside.length === 0;
  const row = (h) => `load ${h.loadMs} ms (max block ${h.load.maxGap} ms), ${CHUNKS.length} chunks in ${h.embedMs} ms (${h.perChunk} ms each), max block while embedding ${h.embed.maxGap} ms, long tasks ${h.embed.longTasks} (longest ${h.embed.maxLongTask} ms)`;
  console.log(`browser:            ${result.userAgent}`);
  console.log(`onnxruntime-web:    ${ORT_WEB_VERSION} (wasm backend, 1 thread), crossOriginIsolated=${result.crossOriginIsolated}`);
  console.log(`runs in:            ${equal.runsIn}${equal.fallback ? ` (fallback: ${equal.fallback})` : ' (Blob URL worker)'}`);
  console.log(`space:              ${equal.spaceId}, ${equal.dimensions} dims (generated tiny model, seed 11)`);
  console.log(`load (page):        ${equal.loadMs} ms (library + 14 MB wasm + model, in the worker)`);
  console.log(`embed (page):       ${equal.embedMs} ms for ${TEXTS.length} texts`);
  console.log(`max |page - node|:  ${worst.toExponential(2)} over ${TEXTS.length}×${equal.dimensions} values`);
  console.log(`first vector page:  ${equal.vectors[0].slice(0, 4).map((x) => x.toFixed(6)).join(', ')}`);
  console.log(`first vector node:  ${nodeVectors[0].slice(0, 4).map((x) => x.toFixed(6)).join(', ')}`);
  console.log(`MiniLM-sized model: ${HEAVY.hidden} wide, ${HEAVY.layers} dense layers (~${Math.round((HEAVY.layers * HEAVY.hidden * HEAVY.hidden) / 1e5) / 10}M multiply-adds per token), 256-token chunks`);
  console.log(`  worker:           ${row(heavy.worker)}`);
  console.log(`  main thread:      ${row(heavy['main-thread'])}`);
  console.log(`  max |worker - main thread|: ${heavyWorst.toExponential(2)}`);
  console.log(`requests:           ${requests.length}, other than page, bundle and vault files: ${outside.length ? outside.join(', ') : 'none'}`);
  if (errors.length) console.log(`page errors:        ${errors.join(' | ')}`);
  console.log(ok ? 'OK: the worker embeds as onnxruntime-node does' : 'MISMATCH');
  if (!ok) exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
process.exit(exitCode);
