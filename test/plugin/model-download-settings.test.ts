import { createHash } from 'crypto';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import os from 'os';
import path from 'path';
import { transformersModelFiles } from '../../shared/index/embedders/model-files';
import { FakeApp } from './fake-obsidian';
import type { FakeElement, FakeSetting, FakeSettingTab } from './fake-obsidian-module';
import { builtPluginForSuite, eventually, indexItem, pluginHost, settingsTab, type LoadedPlugin, type PluginHost } from './plugin-harness';
import { streamingHub, type StreamingHub } from '../twins/streaming-hub';

/**
 * Settings → Embeddings in the built plugin: choosing all-MiniLM-L6-v2 shows the model folder and a
 * Download button; the download runs through the app's fetch (a streaming hub twin here) and the vault
 * adapter, a progress bar follows it byte by byte, Cancel stops it without a final half file, a 404 is
 * shown as the reason, and once complete the tab gives the CLI line that embeds with it.
 */

const MODEL = 'Xenova/all-MiniLM-L6-v2';
const ORT_VERSION = (JSON.parse(readFileSync(path.resolve(__dirname, '../../node_modules/onnxruntime-web/package.json'), 'utf8')) as { version: string }).version;
/** onnxruntime-web's wasm, which the plugin runs the model with: fetched from jsDelivr at the bundled version. */
const WASM_FILE = `onnxruntime-web@${ORT_VERSION}/ort-wasm-simd-threaded.wasm`;
const WASM_URL = `https://cdn.jsdelivr.net/npm/onnxruntime-web@${ORT_VERSION}/dist/ort-wasm-simd-threaded.wasm`;
const MODEL_FILES = transformersModelFiles('fp32');
const FILES = [...MODEL_FILES.slice(0, -1), WASM_FILE, ...MODEL_FILES.slice(-1)];
const CONTENT: Record<string, Uint8Array> = Object.fromEntries(
  FILES.map((f, i) => [f, Uint8Array.from({ length: f.endsWith('.onnx') ? 250_000 : 900 + i }, (_, j) => (j * 7 + i) & 0xff)]),
);
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const REAL_WASM = readFileSync(path.resolve(__dirname, '../../node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm'));
const TOTAL = Object.values(CONTENT).reduce((s, b) => s + b.byteLength, 0);
const TOTAL_MB = `${(TOTAL / 1e6).toFixed(1)} MB`;
const DIR = `.lithos/models/${MODEL}`;

/** The hub twin, answering jsDelivr's URL of the wasm too. */
function hubWith(content: Record<string, Uint8Array>, chunk = 1000): StreamingHub {
  const hub = streamingHub(MODEL, content, chunk);
  hub.mirrors[WASM_URL] = WASM_FILE;
  return hub;
}

/** The requests for files (the hub's listing, read first for sizes and digests, left out). */
function fileRequests(hub: StreamingHub): StreamingHub['requests'] {
  return hub.requests.filter((r) => !r.url.includes('/api/models/'));
}

const built = builtPluginForSuite();

/**
 * The plugin keeps the CDN's wasm only if it has the size and sha256 of the package it was built with. These
 * tests serve made-up bytes (the real runtime would start on them): the built code's expectation, found
 * exactly once, is pointed at them; the last test serves other bytes against it.
 */
function pluginExpecting(wasm: Uint8Array): string {
  const real = new RegExp(`size:\\s*${REAL_WASM.byteLength},\\s*sha256:\\s*"${sha256(REAL_WASM)}"`, 'g');
  expect(built.code.match(real)?.length).toBe(1);
  return built.code.replace(real, `size: ${wasm.byteLength}, sha256: "${sha256(wasm)}"`);
}

let dir = '';
let h: PluginHost | null = null;
let plugin: LoadedPlugin | null = null;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'lithos-plugin-models-'));
});
afterEach(() => {
  plugin?.unload();
  plugin = null;
  h?.dispose();
  h = null;
  rmSync(dir, { recursive: true, force: true });
});

async function start(hub: StreamingHub, embeddings: Record<string, unknown> = {}): Promise<{ app: FakeApp; plugin: LoadedPlugin; host: PluginHost }> {
  const app = FakeApp.with({ 'alpha.md': '# Alpha\nThe quick brown fox.\n' });
  app.adapter.onDisk(dir);
  app.metadataCache.resolved = true;
  app.workspace.finishLayout();
  const data = { settings: { bridge: { enabled: false, port: 0 }, embeddings } };
  h = pluginHost(pluginExpecting(CONTENT[WASM_FILE]), built.manifest, { app, desktop: true, store: { data, saves: 0 }, fetch: hub.fetch });
  plugin = await h.load();
  const p = plugin;
  await eventually(() => indexItem(p).textContent === 'Lithos: ready · 1 note', () => indexItem(p).textContent);
  return { app, plugin: p, host: h };
}

/** The row of the tab's latest rendering (the fake keeps earlier renderings' rows too). */
function row(tab: FakeSettingTab, name: string): FakeSetting {
  const rows = tab.settings.filter((s) => s.name === name);
  if (!rows.length) throw new Error(`no row "${name}" (have: ${tab.settings.map((s) => s.name).join(', ')})`);
  return rows[rows.length - 1];
}

interface DownloadRow {
  status: FakeElement;
  bar: FakeElement & { value?: number; max?: number };
  download(): void;
  cancel(): void;
}

function downloadRow(tab: FakeSettingTab): DownloadRow {
  const r = row(tab, 'Download all-MiniLM-L6-v2');
  const [status, bar] = r.descEl.children;
  expect(bar.tag).toBe('progress');
  return { status, bar, download: () => void r.controls[0].change(), cancel: () => void r.controls[1].change() };
}

async function chooseMiniLm(tab: FakeSettingTab): Promise<DownloadRow> {
  expect(row(tab, 'Embedding model').controls[0].options).toEqual({ hashing: 'Offline (hashing, no download)', 'minilm-l6-v2': 'all-MiniLM-L6-v2' });
  expect(() => row(tab, 'Download all-MiniLM-L6-v2')).toThrow();
  await row(tab, 'Embedding model').controls[0].change('minilm-l6-v2');
  const d = downloadRow(tab);
  await eventually(() => /^Not downloaded/.test(d.status.textContent ?? ''), () => d.status.textContent);
  return d;
}

describe('Settings → Embeddings: all-MiniLM-L6-v2 download', () => {
  test('Download fills a progress bar with real byte counts, places every file and says how to embed with it', async () => {
    const hub = hubWith(CONTENT, 16_384);
    const seen: { value?: number; max?: number; text: string | null; hidden: boolean }[] = [];
    const { app, plugin, host } = await start(hub);
    const tab = settingsTab(plugin);
    const d = await chooseMiniLm(tab);
    expect((host.store.data as { settings: { embeddings: unknown } }).settings.embeddings).toEqual({ model: 'minilm-l6-v2', modelFolder: '.lithos/models' });
    expect(d.bar.attrs.has('hidden')).toBe(true);

    hub.beforeChunk = (file, offset) => {
      if (file === 'onnx/model.onnx' && offset > 0) seen.push({ value: d.bar.value, max: d.bar.max, text: d.status.textContent, hidden: d.bar.attrs.has('hidden') });
    };
    d.download();
    await eventually(() => /^Downloaded/.test(d.status.textContent ?? ''), () => d.status.textContent);

    expect(seen.length).toBeGreaterThan(10);
    expect(seen.every((s) => !s.hidden && s.max === TOTAL)).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i].value ?? 0).toBeGreaterThan(seen[i - 1].value ?? 0);
    expect(seen[seen.length - 1].text).toMatch(new RegExp(`^Downloading onnx/model\\.onnx \\(5/5\\): [\\d.]+ MB of ${TOTAL_MB}$`));

    expect(d.status.textContent).toBe(`Downloaded (${TOTAL_MB}) in ${DIR}.`);
    expect(d.bar.attrs.has('hidden')).toBe(true);
    for (const f of FILES) expect(app.adapter.files.get(`${DIR}/${f}`)?.bytes).toEqual(CONTENT[f]);
    expect([...app.adapter.files.keys()].filter((k) => k.endsWith('.part'))).toEqual([]);
    expect(host.record.notices).toContain(`Lithos: all-MiniLM-L6-v2 downloaded (${TOTAL_MB}) into ${DIR}.`);

    // Complete: the plugin loads it at once (these bytes are no model, so it says why and stays offline).
    await eventually(() => /^Failed: /.test(row(tab, 'Use in Obsidian').descEl.children[0].textContent ?? ''), () => row(tab, 'Use in Obsidian').descEl.children[0].textContent);
    expect(host.record.notices.some((n) => n.startsWith('Lithos: all-MiniLM-L6-v2 is not used: '))).toBe(true);

    const use = row(tab, 'Embed with the CLI');
    const line = `lithos reembed ${dir} --space minilm-l6-v2 --model-dir ${dir}/.lithos/models`;
    expect(use.desc).toContain(`close Obsidian (the CLI needs the vault to itself) and run: ${line}.`);
    await use.controls[0].change();
    await eventually(() => host.clipboard.length === 1, () => host.clipboard);
    expect(host.clipboard[0]).toBe(line);

    // A second Download finds everything in place and fetches nothing.
    hub.requests.length = 0;
    d.download();
    await eventually(() => /^Downloaded/.test(d.status.textContent ?? '') && fileRequests(hub).length === 0, () => d.status.textContent);
  });

  test('Cancel stops the download: no final half file, the reason shown, and Download resumes from the part', async () => {
    const hub = hubWith(CONTENT, 16_384);
    const { app, plugin } = await start(hub, { model: 'minilm-l6-v2', modelFolder: 'Models' });
    const tab = settingsTab(plugin);
    const d = downloadRow(tab);
    expect(row(tab, 'Model folder').controls[0].value).toBe('Models');
    await eventually(() => /^Not downloaded/.test(d.status.textContent ?? ''), () => d.status.textContent);

    hub.beforeChunk = (file, offset) => {
      if (file === 'onnx/model.onnx' && offset >= 100_000) d.cancel();
    };
    d.download();
    await eventually(() => d.status.textContent === 'Cancelled. Download resumes where it stopped.', () => d.status.textContent);
    expect(app.adapter.files.has(`Models/${MODEL}/onnx/model.onnx`)).toBe(false);
    expect(app.adapter.files.get(`Models/${MODEL}/onnx/model.onnx.part`)?.bytes.byteLength).toBe(114_688);

    hub.beforeChunk = undefined;
    hub.requests.length = 0;
    d.download();
    await eventually(() => /^Downloaded/.test(d.status.textContent ?? ''), () => d.status.textContent);
    expect(fileRequests(hub)).toEqual([{ url: `https://huggingface.co/${MODEL}/resolve/main/onnx/model.onnx`, range: 'bytes=114688-' }]);
    expect(app.adapter.files.get(`Models/${MODEL}/onnx/model.onnx`)?.bytes).toEqual(CONTENT['onnx/model.onnx']);
  });

  test('a failed download shows its reason and leaves nothing under a final name', async () => {
    const missing = { ...CONTENT };
    delete missing['tokenizer.json'];
    const hub = hubWith(missing);
    const { app, plugin, host } = await start(hub, { model: 'minilm-l6-v2' });
    const d = downloadRow(settingsTab(plugin));
    d.download();
    await eventually(() => /^Failed/.test(d.status.textContent ?? ''), () => d.status.textContent);
    expect(d.status.textContent).toBe(
      `Failed: Downloading tokenizer.json failed: HTTP 404 from https://huggingface.co/${MODEL}/resolve/main/tokenizer.json: the file does not exist there (check the model id).`,
    );
    expect(app.adapter.files.has(`${DIR}/tokenizer.json`)).toBe(false);
    expect(app.adapter.files.has(`${DIR}/onnx/model.onnx`)).toBe(false);
    expect(host.record.notices.some((n) => n.startsWith('Lithos: the all-MiniLM-L6-v2 download failed: Downloading tokenizer.json failed: HTTP 404'))).toBe(true);
  });

  test('a runtime wasm from the CDN that is not the bundled package\'s is refused and never kept', async () => {
    const tampered = new Uint8Array(CONTENT[WASM_FILE]);
    tampered[tampered.length - 1] ^= 0xff; // same size, other bytes: only the sha256 tells
    const hub = hubWith({ ...CONTENT, [WASM_FILE]: tampered });
    const { app, plugin } = await start(hub, { model: 'minilm-l6-v2' });
    const d = downloadRow(settingsTab(plugin));
    d.download();
    await eventually(() => /^Failed/.test(d.status.textContent ?? ''), () => d.status.textContent);
    expect(d.status.textContent).toContain(WASM_FILE);
    expect(d.status.textContent).toMatch(/sha256/);
    expect(app.adapter.files.has(`${DIR}/${WASM_FILE}`)).toBe(false);
    expect(app.adapter.files.has(`${DIR}/onnx/model.onnx`)).toBe(false);
  });
});
