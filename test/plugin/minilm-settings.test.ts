/**
 * all-MiniLM-L6-v2 in the built plugin (Settings → Embeddings): with the model folder complete, choosing
 * the model loads it in the plugin (onnxruntime-web on its wasm backend, the generated tiny model and the
 * real ORT wasm read through the vault adapter), adds the `minilm-l6-v2` space, embeds every note in the
 * background with the status bar counting, and embeds edited notes as they are indexed. An incomplete
 * folder adds nothing and says what is missing; switching back to offline removes the space without a
 * restart; a corrupt model is a notice and the offline space keeps working. The harness has no Web Worker,
 * so these run the model on the main thread (and say so); given a Worker twin on a Node thread, the plugin
 * runs it in the worker started from main.js's own copy of the worker code, and stops it on switch-off.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'fs';
import os from 'os';
import path from 'path';
import type { MemoryEngine } from '../../shared/engine';
import { DEFAULT_MODEL_ID } from '../../shared/index/embedders/transformers-embedder';
import { writeTinyModelUnder } from '../fixtures/tiny-model/generate';
import { FakeApp } from './fake-obsidian';
import type { FakeSetting, FakeSettingTab } from './fake-obsidian-module';
import { buildPlugin, eventually, indexItem, pluginHost, settingsTab, type LoadedPlugin, type PluginHost } from './plugin-harness';
import { ThreadWorkerTwin } from './worker-twins';

const ROOT = path.resolve(__dirname, '../..');
const ORT_VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/onnxruntime-web/package.json'), 'utf8')) as { version: string }).version;
const WASM_FILE = `onnxruntime-web@${ORT_VERSION}/ort-wasm-simd-threaded.wasm`;
const WASM = new Uint8Array(readFileSync(path.join(ROOT, 'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm')));
const FOLDER = `.lithos/models/${DEFAULT_MODEL_ID}`;
const SPACES_BOTH = 'Active spaces: hash-ngram-v2-384, minilm-l6-v2.';
const SPACES_OFFLINE = 'Active spaces: hash-ngram-v2-384.';

let built: ReturnType<typeof buildPlugin>;
let tmp: string;
const model = new Map<string, Uint8Array>();
beforeAll(async () => {
  built = buildPlugin();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'lithos-minilm-plugin-'));
  const dir = (await writeTinyModelUnder(tmp, DEFAULT_MODEL_ID, { hidden: 24, seed: 3 })).dir;
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d)) {
      const abs = path.join(d, name);
      if (statSync(abs).isDirectory()) walk(abs, `${rel}${name}/`);
      else model.set(`${rel}${name}`, new Uint8Array(readFileSync(abs)));
    }
  };
  walk(dir, '');
  model.set(WASM_FILE, WASM);
}, 60_000);
afterAll(() => {
  built?.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

let h: PluginHost | null = null;
let plugin: LoadedPlugin | null = null;
afterEach(async () => {
  const p = plugin;
  const host = h;
  plugin = null;
  h = null;
  if (p && host) {
    p.unload();
    await eventually(() => !host.app.adapter.files.has('.lithos/lock.json'), () => 'lock still held');
    host.dispose();
  }
});

async function start(embeddings: Record<string, unknown>, files: Map<string, Uint8Array> = model, worker?: unknown): Promise<{ app: FakeApp; p: LoadedPlugin; host: PluginHost }> {
  const app = FakeApp.with({
    'alpha.md': '# Alpha\nThe quick brown fox jumps over the fence.\n',
    'notes/beta.md': '# Beta\nLazy dogs sleep all afternoon.\n',
    'notes/gamma.md': '# Gamma\nCats and physics.\n',
  });
  for (const [f, bytes] of files) app.adapter.put(`${FOLDER}/${f}`, bytes);
  app.metadataCache.resolved = true;
  app.workspace.finishLayout();
  const data = { settings: { bridge: { enabled: false }, embeddings } };
  h = pluginHost(built.code, built.manifest, { app, desktop: true, store: { data, saves: 0 }, worker });
  plugin = await h.load();
  return { app, p: plugin, host: h };
}

function row(tab: FakeSettingTab, name: string): FakeSetting {
  const rows = tab.settings.filter((s) => s.name === name);
  if (!rows.length) throw new Error(`no row "${name}" (have: ${tab.settings.map((s) => s.name).join(', ')})`);
  return rows[rows.length - 1];
}

const useText = (tab: FakeSettingTab): string => row(tab, 'Use in Obsidian').descEl.children[0].textContent ?? '';
const spacesText = (p: LoadedPlugin): string => row(settingsTab(p), 'Embeddings').desc ?? '';
/** The built plugin's engine, to read what it cached (the plugin keeps it in its session). */
const engineOf = (p: LoadedPlugin): MemoryEngine => (p as unknown as { session: { engine: MemoryEngine } }).session.engine;


/** A note created in Obsidian is indexed with MiniLM vectors too, not only the hashing space's. */
async function newNoteGetsMiniLm(app: FakeApp, engine: MemoryEngine): Promise<void> {
  await app.vault.create('delta.md', '# Delta\nA brand new note about quantum cats.\n');
  await eventually(
    () => {
      const d = engine.services.notes.note('delta.md');
      return !!d && engine.services.search.cache.vectors(d.nodeId, 'minilm-l6-v2', d.contentHash) !== null;
    },
    () => engine.services.notes.note('delta.md')?.path ?? 'not indexed',
  );
}

test('MiniLM chosen with a complete folder: loaded in the plugin, every note embedded in the background, a new note embedded as it is indexed', async () => {
  const { app, p, host } = await start({ model: 'minilm-l6-v2' });
  const seen = new Set<string>();
  await eventually(
    () => (seen.add(indexItem(p).textContent ?? ''), /In use/.test(useText(settingsTab(p)))),
    () => [useText(settingsTab(p)), indexItem(p).textContent, host.record.notices],
  );
  expect(useText(settingsTab(p))).toBe('In use: Obsidian searches minilm-l6-v2 beside the offline space, and embeds new and edited notes with it (3 notes checked at the start). It runs on Obsidian\'s main thread (this app has no Web Workers), so typing can pause while it embeds.');
  expect([...seen].some((t) => /^Lithos: embedding \(MiniLM\) \d\/3$/.test(t))).toBe(true);
  expect(indexItem(p).textContent).toBe('Lithos: ready · 3 notes');
  expect(spacesText(p)).toBe(SPACES_BOTH);

  const engine = engineOf(p);
  for (const n of engine.services.notes.notes()) expect(engine.services.search.cache.vectors(n.nodeId, 'minilm-l6-v2', n.contentHash)?.[0]).toHaveLength(24);
  const hits = await engine.services.search.search('lazy dogs', { mode: 'vector', k: 3 });
  expect(hits.length).toBeGreaterThan(0);

  await newNoteGetsMiniLm(app, engine);
  // Nothing was fetched: the harness gives the plugin no fetch at all, the model came from the adapter.
  expect(host.record.notices.filter((n) => /MiniLM/.test(n))).toEqual([]);
});

test('an incomplete folder adds no space and says what is missing; switching back to offline removes the space without a restart', async () => {
  const partial = new Map(model);
  partial.delete(WASM_FILE);
  const { app, p } = await start({ model: 'minilm-l6-v2' }, partial);
  await eventually(() => /^Not in use yet/.test(useText(settingsTab(p))), () => useText(settingsTab(p)));
  expect(useText(settingsTab(p))).toBe(`Not in use yet: ${FOLDER} lacks ${WASM_FILE}. Download it first.`);
  expect(spacesText(p)).toBe(SPACES_OFFLINE);

  // The file arrives (as Download would leave it): Retry loads the model.
  app.adapter.put(`${FOLDER}/${WASM_FILE}`, WASM);
  await row(settingsTab(p), 'Use in Obsidian').controls[0].change();
  await eventually(() => /^In use/.test(useText(settingsTab(p))), () => useText(settingsTab(p)));
  expect(spacesText(p)).toBe(SPACES_BOTH);

  const shown = settingsTab(p);
  await row(shown, 'Embedding model').controls[0].change('hashing');
  expect(spacesText(p)).toBe(SPACES_OFFLINE);
  // The row of the rendering that showed MiniLM follows the switch until the tab is drawn again.
  expect(useText(shown)).toBe('Not in use.');
  expect((await engineOf(p).services.search.search('lazy dogs', { k: 3 })).length).toBeGreaterThan(0);

  await row(settingsTab(p), 'Embedding model').controls[0].change('minilm-l6-v2');
  await eventually(() => /^In use/.test(useText(settingsTab(p))), () => useText(settingsTab(p)));
  expect(spacesText(p)).toBe(SPACES_BOTH);
});

test('a corrupt model file: a notice says why, the plugin keeps indexing and searching with the offline space', async () => {
  const corrupt = new Map(model);
  corrupt.set('onnx/model.onnx', new Uint8Array([8, 1, 18, 4, 1, 2, 3]));
  const { app, p, host } = await start({ model: 'minilm-l6-v2' }, corrupt);
  await eventually(() => /^Failed/.test(useText(settingsTab(p))), () => useText(settingsTab(p)));
  expect(useText(settingsTab(p))).toMatch(/^Failed: Could not load embedding model "Xenova\/all-MiniLM-L6-v2" from \.lithos\/models\/Xenova\/all-MiniLM-L6-v2: .+ Obsidian keeps the offline space\.$/);
  expect(host.record.notices.some((n) => n.startsWith('Lithos: all-MiniLM-L6-v2 is not used: Could not load embedding model'))).toBe(true);
  expect(spacesText(p)).toBe(SPACES_OFFLINE);
  expect(indexItem(p).textContent).toBe('Lithos: ready · 3 notes');
  await app.vault.create('delta.md', '# Delta\nStill indexed.\n');
  await eventually(() => indexItem(p).textContent === 'Lithos: ready · 4 notes', () => indexItem(p).textContent);
});

test('with Web Workers the built plugin runs the model in a worker made from its own code, says so, and stops it when switched off', async () => {
  const made = ThreadWorkerTwin.made.length;
  const { app, p } = await start({ model: 'minilm-l6-v2' }, model, ThreadWorkerTwin);
  await eventually(() => /^In use/.test(useText(settingsTab(p))), () => useText(settingsTab(p)));
  expect(useText(settingsTab(p))).toBe('In use: Obsidian searches minilm-l6-v2 beside the offline space, and embeds new and edited notes with it (3 notes checked at the start). It runs in a background worker.');
  expect(ThreadWorkerTwin.made).toHaveLength(made + 1);
  const twin = ThreadWorkerTwin.made[made];
  const engine = engineOf(p);
  for (const n of engine.services.notes.notes()) expect(engine.services.search.cache.vectors(n.nodeId, 'minilm-l6-v2', n.contentHash)?.[0]).toHaveLength(24);

  await newNoteGetsMiniLm(app, engine);
  await row(settingsTab(p), 'Embedding model').controls[0].change('hashing');
  expect(spacesText(p)).toBe(SPACES_OFFLINE);
  await eventually(() => twin.terminated, () => 'worker still running');
});
