import { readFileSync } from 'fs';
import path from 'path';
import vm from 'vm';
import { webcrypto } from 'crypto';
import type { FakeApp } from './fake-obsidian';
import { builtFolder } from '../build-once';
import { createObsidianModule, type FakeDataStore, type FakeElement, type FakePlugin, type FakeSettingTab, type ObsidianModuleRecord } from './fake-obsidian-module';

/**
 * The BUILT plugin (dist/plugin/main.js from esbuild.config.mjs), loaded the way Obsidian loads it, against
 * the fake App (fake-obsidian.ts) and fake `obsidian` module (fake-obsidian-module.ts). Desktop mode also
 * offers Node's modules and globals (as Electron's renderer does), so the bridge host really listens;
 * mobile mode offers none. Timers under 1 s fire at once (debounces); longer ones run in real time, and
 * every interval the plugin leaves running is visible in `liveIntervals`.
 */

export function buildPlugin(): { code: string; manifest: unknown; cleanup(): void } {
  const { dir, cleanup } = builtFolder('lithos-plugin-', 'plugin');
  return {
    code: readFileSync(path.join(dir, 'plugin', 'main.js'), 'utf8'),
    manifest: JSON.parse(readFileSync(path.join(dir, 'plugin', 'manifest.json'), 'utf8')) as unknown,
    cleanup,
  };
}

/** The plugin built once for a spec file: registers its beforeAll/afterAll; read `code` and `manifest` inside tests. */
export function builtPluginForSuite(): { readonly code: string; readonly manifest: unknown } {
  let built: ReturnType<typeof buildPlugin> | null = null;
  beforeAll(() => {
    built = buildPlugin();
  }, 60_000);
  afterAll(() => built?.cleanup());
  const get = (): ReturnType<typeof buildPlugin> => {
    if (!built) throw new Error('the plugin is built in beforeAll; read it inside a test or hook');
    return built;
  };
  return {
    get code() {
      return get().code;
    },
    get manifest() {
      return get().manifest;
    },
  };
}

export type LoadedPlugin = FakePlugin & { onload(): Promise<void>; onunload(): void };

export interface PluginHost {
  app: FakeApp;
  record: ObsidianModuleRecord;
  store: FakeDataStore;
  clipboard: string[];
  /** Ids the bundle required; `obsidian` always, Node modules only once the bridge starts. */
  required: string[];
  liveIntervals: Set<unknown>;
  liveTimeouts: Set<unknown>;
  /** A new plugin instance from the bundle (Obsidian makes one per enable), loaded. */
  load(): Promise<LoadedPlugin>;
  /** Clears whatever timers are still pending (end of a test). */
  dispose(): void;
}

/**
 * Evaluates main.js as Obsidian does: as the body of a function of (require, module, exports). Run as a
 * global script instead, its top-level declarations would land on the global, which is also `self` and
 * `window`; a top-level `name` made ORT (in the MiniLM code run in-thread) see `self.name` and take itself
 * for a pthread worker.
 */
export function runMainJs(code: string, context: vm.Context, mod: { exports: Record<string, unknown> }): void {
  const body = vm.compileFunction(code, ['require', 'module', 'exports'], { parsingContext: context, filename: 'main.js' }) as (...args: unknown[]) => void;
  body((context as { require: unknown }).require, mod, mod.exports);
}

export function pluginHost(code: string, manifest: unknown, o: { app: FakeApp; desktop: boolean; store?: FakeDataStore; fetch?: unknown; worker?: unknown }): PluginHost {
  const { module: obsidian, record, store } = createObsidianModule({ desktop: o.desktop, store: o.store });
  const required: string[] = [];
  const clipboard: string[] = [];
  const liveIntervals = new Set<unknown>();
  const liveTimeouts = new Set<unknown>();
  const mod: { exports: Record<string, unknown> } = { exports: {} };
  const globals: Record<string, unknown> = {
    module: mod,
    exports: mod.exports,
    require: (id: string) => {
      required.push(id);
      if (id === 'obsidian') return obsidian;
      if (!o.desktop) throw new Error(`the plugin required "${id}", which Obsidian mobile does not provide`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- Electron's renderer hands Node modules to the plugin this way
      return require(id) as unknown;
    },
    setTimeout: (fn: () => void, ms = 0) => {
      const t = setTimeout(
        () => {
          liveTimeouts.delete(t);
          fn();
        },
        ms < 1000 ? 0 : ms,
      );
      liveTimeouts.add(t);
      return t;
    },
    clearTimeout: (t: NodeJS.Timeout) => {
      liveTimeouts.delete(t);
      clearTimeout(t);
    },
    setInterval: (fn: () => void, ms: number) => {
      const t = setInterval(fn, ms);
      liveIntervals.add(t);
      return t;
    },
    clearInterval: (t: NodeJS.Timeout) => {
      liveIntervals.delete(t);
      clearInterval(t);
    },
    queueMicrotask,
    AbortController,
    TextEncoder,
    TextDecoder,
    crypto: webcrypto,
    performance,
    atob,
    btoa,
    console,
    navigator: { clipboard: { writeText: async (t: string) => void clipboard.push(t) } },
    ...(o.desktop ? { process, Buffer } : {}),
    // Web platform classes Obsidian has everywhere (transformers.js reads model files as Responses).
    URL,
    Blob,
    Headers,
    Response,
    // Obsidian has fetch on every platform; a spec that downloads hands over a network twin.
    ...(o.fetch ? { fetch: o.fetch } : {}),
    // Obsidian's renderer has Web Workers; a spec that wants the MiniLM worker hands over a twin.
    ...(o.worker ? { Worker: o.worker } : {}),
  };
  const context = vm.createContext(globals);
  globals.window = context;
  globals.self = context;
  runMainJs(code, context, mod);
  const PluginClass = mod.exports.default as new (app: FakeApp, manifest: unknown) => LoadedPlugin;
  return {
    app: o.app,
    record,
    store,
    clipboard,
    required,
    liveIntervals,
    liveTimeouts,
    async load() {
      const p = new PluginClass(o.app, manifest);
      await p.onload();
      return p;
    },
    dispose() {
      for (const t of liveIntervals) clearInterval(t as NodeJS.Timeout);
      for (const t of liveTimeouts) clearTimeout(t as NodeJS.Timeout);
    },
  };
}

export { eventually } from '../eventually';

export function indexItem(p: FakePlugin): FakeElement {
  return p.statusItems[0];
}
export function bridgeItem(p: FakePlugin): FakeElement {
  return p.statusItems[1];
}
export function settingsTab(p: FakePlugin): FakeSettingTab {
  const tab = p.settingTabs[0];
  (tab as unknown as { display(): void }).display();
  return tab;
}
