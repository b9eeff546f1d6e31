/**
 * What the MiniLM worker specs share: the worker's message handler bundled as main.js bundles it (the
 * transformers.js browser build on onnxruntime-web, scripts/minilm-bundle.mjs), a generated tiny model,
 * and the `init` message the plugin would send for it with the real ORT wasm.
 */
import { execFileSync } from 'child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'fs';
import os from 'os';
import path from 'path';
import type { InitRequest } from '../../plugin/minilm/worker-protocol';
import { DEFAULT_MODEL_ID } from '../../shared/index/embedders/transformers-embedder';
import { writeTinyModelUnder } from '../fixtures/tiny-model/generate';
import type { CreateHandler } from './worker-twins';

const ROOT = path.resolve(__dirname, '../..');
export const ORT_VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/onnxruntime-web/package.json'), 'utf8')) as { version: string }).version;
export const WASM = new Uint8Array(readFileSync(path.join(ROOT, 'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm')));
export const FOLDER = `.lithos/models/${DEFAULT_MODEL_ID}`;

export interface WorkerFixture {
  dir: string;
  /** `<dir>/models`: the root the bridge's embedder reads the same model from. */
  models: string;
  /** A fresh copy of the bundled handler module: each copy has its own ONNX runtime. */
  handlerModule(): { createMiniLmHandler: CreateHandler };
  /** Vault path → bytes of the model folder (model files only; the wasm travels on its own). */
  files: Map<string, Uint8Array>;
  cleanup(): void;
}

export async function workerFixture(seed: number): Promise<WorkerFixture> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lithos-minilm-worker-'));
  const out = path.join(dir, 'handler.cjs');
  execFileSync(process.execPath, ['scripts/minilm-bundle.mjs', out, 'cjs', 'handler'], { cwd: ROOT, stdio: 'pipe' });
  const models = path.join(dir, 'models');
  const modelDir = (await writeTinyModelUnder(models, DEFAULT_MODEL_ID, { hidden: 24, seed })).dir;
  const files = new Map<string, Uint8Array>();
  for (const name of readdirSync(modelDir)) {
    const abs = path.join(modelDir, name);
    if (statSync(abs).isDirectory()) for (const inner of readdirSync(abs)) files.set(`${FOLDER}/${name}/${inner}`, new Uint8Array(readFileSync(path.join(abs, inner))));
    else files.set(`${FOLDER}/${name}`, new Uint8Array(readFileSync(abs)));
  }
  let copies = 0;
  return {
    dir,
    models,
    files,
    handlerModule() {
      const copy = path.join(dir, `handler-${copies++}.cjs`);
      copyFileSync(out, copy);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle under test is plain CommonJS
      return require(copy) as { createMiniLmHandler: CreateHandler };
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The `init` the plugin sends: fresh buffers each time (a transfer detaches them). */
export function initFor(f: WorkerFixture, o: { wasm?: Uint8Array; replace?: Record<string, Uint8Array | null> } = {}): InitRequest {
  const files: Record<string, ArrayBuffer> = {};
  for (const [p, bytes] of f.files) {
    const r = o.replace && p in o.replace ? o.replace[p] : bytes;
    if (r) files[p] = r.slice().buffer;
  }
  return { type: 'init', root: '.lithos/models', wasm: (o.wasm ?? WASM).slice().buffer, files };
}
