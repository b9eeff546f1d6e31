import { execFileSync } from 'child_process';
import { readdirSync, readFileSync, statSync } from 'fs';
import { builtinModules } from 'module';
import path from 'path';
import vm from 'vm';
import { webcrypto } from 'crypto';
import type { EngineSearchHit } from '../shared/engine';
import { builtFolder } from './build-once';
import { eventually } from './eventually';
import { FakeApp } from './plugin/fake-obsidian';
import { createObsidianModule, type FakePlugin, type FakeSuggestModal } from './plugin/fake-obsidian-module';
import { runMainJs } from './plugin/plugin-harness';

/**
 * `npm run build` (esbuild.config.mjs) into a temp dir, then checks what ships: the plugin is one
 * CJS file that needs nothing but `obsidian` at run time and carries its own sql.js wasm, and it
 * really works — loaded into a V8 context with no Node APIs at all (as on mobile), against the
 * fake App from test/plugin/fake-obsidian.ts.
 */

const ROOT = path.resolve(__dirname, '..');
const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const BRIDGE_EXTERNALS = new Set(['@huggingface/transformers', 'onnxruntime-node', 'sharp', 'sql.js', 'bufferutil', 'utf-8-validate']);

let out = '';
let cleanup = (): void => undefined;

beforeAll(() => {
  ({ dir: out, cleanup } = builtFolder('lithos-build-'));
}, 60_000);

afterAll(() => cleanup());

/**
 * Module ids the bundle asks `require` for at run time (esbuild emits them as require("id")). Ones right
 * after a quote or backtick are text inside strings: ajv (in the MCP SDK) keeps `require("ajv/…")` in its
 * code-generation templates, which are never required at run time.
 */
function requiredIds(code: string): string[] {
  return [...new Set([...code.matchAll(/(?<![`'])\brequire\("([^"]+)"\)/g)].map((m) => m[1]))].sort();
}

type SearchModal = FakeSuggestModal & {
  getSuggestions(query: string): Promise<EngineSearchHit[]>;
  onChooseSuggestion(hit: EngineSearchHit): void;
};

/** Loads dist/plugin/main.js the way Obsidian does, into a context with only what a webview offers. */
function loadPlugin(code: string): { PluginClass: new (app: FakeApp, manifest: unknown) => FakePlugin; record: ReturnType<typeof createObsidianModule>['record']; fetched: string[]; required: string[] } {
  const { module: obsidian, record } = createObsidianModule();
  const fetched: string[] = [];
  const required: string[] = [];
  const mod: { exports: Record<string, unknown> } = { exports: {} };
  const globals: Record<string, unknown> = {
    module: mod,
    exports: mod.exports,
    require: (id: string) => {
      required.push(id);
      if (id === 'obsidian') return obsidian;
      throw new Error(`the plugin required "${id}", which Obsidian does not provide`);
    },
    fetch: (url: unknown) => {
      fetched.push(String(url));
      throw new Error('the plugin tried to fetch');
    },
    // Web platform globals (present in Electron's renderer and in mobile webviews) — and no
    // process, Buffer, global or __dirname. Timers fire at once so debounces do not slow the test.
    setTimeout: (fn: () => void) => setTimeout(fn, 0),
    clearTimeout,
    queueMicrotask,
    TextEncoder,
    TextDecoder,
    crypto: webcrypto,
    performance,
    atob,
    btoa,
    console,
  };
  const context = vm.createContext(globals);
  globals.window = context; // a browser global object, as Obsidian's renderer and webviews have
  globals.self = context;
  runMainJs(code, context, mod);
  const PluginClass = mod.exports.default as new (app: FakeApp, manifest: unknown) => FakePlugin;
  return { PluginClass, record, fetched, required };
}

describe('build (node esbuild.config.mjs)', () => {
  test('plugin: main.js, manifest.json and styles.css, nothing else (no .wasm beside it)', () => {
    expect(readdirSync(path.join(out, 'plugin')).sort()).toEqual(['main.js', 'manifest.json', 'styles.css']);
    expect(readFileSync(path.join(out, 'plugin', 'manifest.json'), 'utf8')).toBe(readFileSync(path.join(ROOT, 'manifest.json'), 'utf8'));
    expect(readFileSync(path.join(out, 'plugin', 'styles.css'), 'utf8')).toBe(readFileSync(path.join(ROOT, 'styles.css'), 'utf8'));
  });

  test('plugin: besides obsidian, requires only Node built-ins and ws\'s optional native peers — the bridge host\'s, reached only when it starts on desktop', () => {
    const ids = requiredIds(readFileSync(path.join(out, 'plugin', 'main.js'), 'utf8'));
    expect(ids).toContain('obsidian');
    expect(ids.filter((id) => id !== 'obsidian' && !NODE_BUILTINS.has(id) && id !== 'bufferutil' && id !== 'utf-8-validate')).toEqual([]);
    // The runtime check that none of them is touched without the bridge is the next test's `required`.
  });

  test('bridge: an executable CJS file whose only run-time packages are Node built-ins and the declared externals', () => {
    const code = readFileSync(path.join(out, 'bridge', 'cli.js'), 'utf8');
    expect(code.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(path.join(out, 'bridge', 'cli.js')).mode & 0o111).not.toBe(0);
    expect(requiredIds(code).filter((id) => !NODE_BUILTINS.has(id) && !BRIDGE_EXTERNALS.has(id))).toEqual([]);
    execFileSync(process.execPath, ['--check', path.join(out, 'bridge', 'cli.js')]);
  });

  test('bridge: the development build links its source map instead of inlining it (every bridge process holds cli.js)', () => {
    const code = readFileSync(path.join(out, 'bridge', 'cli.js'), 'utf8');
    expect(code).not.toContain('sourceMappingURL=data:');
    expect(code.trimEnd().endsWith('//# sourceMappingURL=cli.js.map')).toBe(true);
    const map = JSON.parse(readFileSync(path.join(out, 'bridge', 'cli.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.some((s) => s.endsWith('bridge/cli.ts'))).toBe(true);
  });

  test('the built plugin opens the memory, indexes, searches, follows edits and reopens — with no Node APIs', async () => {
    const code = readFileSync(path.join(out, 'plugin', 'main.js'), 'utf8');
    const manifest: unknown = JSON.parse(readFileSync(path.join(ROOT, 'manifest.json'), 'utf8'));
    const app = FakeApp.with({
      'alpha.md': '---\ntags: [animals]\n---\n# Alpha\nThe quick brown fox jumps over the fence.\n',
      'notes/beta.md': '# Beta\nLazy dogs sleep all afternoon.\n',
      'gamma.md': '# Gamma\nA note about tea and biscuits.\n',
    });
    const { PluginClass, record, fetched, required } = loadPlugin(code);

    const plugin = new PluginClass(app, manifest) as FakePlugin & { onload(): Promise<void>; onunload(): void };
    await plugin.onload();
    const status = plugin.statusItems[0];
    expect(status.textContent).toBe('Lithos: starting…');
    expect(plugin.commands.map((c) => c.id)).toEqual(expect.arrayContaining(['rebuild-index', 'search']));

    app.workspace.finishLayout();
    app.metadataCache.resolve();
    await eventually(() => status.textContent === 'Lithos: ready · 3 notes', () => [status.textContent, record.notices]);
    expect(app.vault.listenerCount()).toBe(7); // create/modify/delete/rename, and create/modify/rename of the devices folder (each through registerEvent)

    plugin.runCommand('search');
    const modal = record.modals[0] as SearchModal;
    expect(modal.opened).toBe(true);
    const hits = await modal.getSuggestions('quick brown fox');
    expect(hits[0]).toMatchObject({ path: 'alpha.md', tags: ['animals'] });
    modal.onChooseSuggestion(hits[0]);
    expect(app.workspace.opened).toEqual(['alpha.md']);

    await app.vault.create('delta.md', '# Delta\nZebra crossings are striped.\n');
    await eventually(() => status.textContent === 'Lithos: ready · 4 notes', () => status.textContent);
    expect((await modal.getSuggestions('zebra crossings'))[0]?.path).toBe('delta.md');

    // Deleting a folder (reported for the folder only, in the fake) makes the plugin rescan.
    const folder = app.vault.getAbstractFileByPath('notes');
    if (!folder) throw new Error('fixture: notes/ folder missing');
    await app.vault.trash(folder, true);
    await eventually(() => status.textContent === 'Lithos: ready · 3 notes', () => status.textContent);
    expect((await modal.getSuggestions('lazy dogs sleep')).map((h) => h.path)).not.toContain('notes/beta.md');

    plugin.onunload();
    await eventually(() => [...app.adapter.files.keys()].some((k) => k.startsWith('.lithos/')), () => [...app.adapter.files.keys()]);

    // Re-enabled after start-up (layout already ready): a fresh instance reopens its stores in .lithos/.
    const again = new PluginClass(app, manifest) as FakePlugin & { onload(): Promise<void>; onunload(): void };
    await again.onload();
    await eventually(() => again.statusItems[0].textContent === 'Lithos: ready · 3 notes', () => again.statusItems[0].textContent);
    again.onunload();

    expect(record.notices).toEqual([]);
    expect(fetched).toEqual([]);
    expect([...new Set(required)]).toEqual(['obsidian']);
  });
});
