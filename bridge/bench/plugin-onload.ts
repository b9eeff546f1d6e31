/**
 * `onload_ms`: how long the BUILT plugin's onload takes (registering views, commands, settings tab, status
 * bar; loading data.json), which Obsidian waits for at start-up. dist/plugin/main.js (beside the built
 * CLI's dist/bridge/) is evaluated in a fresh V8 context against a minimal stand-in for Obsidian's App and
 * `obsidian` module — the same way test/build.test.ts loads it — and its onload is timed until it resolves.
 * The layout never becomes ready here, so nothing is indexed: that work starts after onload, by design.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { webcrypto } from 'node:crypto';
import { percentile } from './stats';

/** Where the built plugin sits relative to the built CLI (dist/bridge/cli.js → dist/plugin/main.js). */
export function builtPluginPath(): string {
  return join(__dirname, '..', 'plugin', 'main.js');
}

/** An element with the DOM surface the status bar and registerDomEvent use. */
function element(): Record<string, unknown> {
  const el: Record<string, unknown> = {
    textContent: null,
    classList: { add: () => undefined, toggle: () => true },
    setAttribute: () => undefined,
    removeAttribute: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
  el.createEl = () => element();
  el.createDiv = () => element();
  el.empty = () => undefined;
  return el;
}

function obsidianModule(): Record<string, unknown> {
  class Plugin {
    constructor(
      readonly app: unknown,
      readonly manifest: unknown,
    ) {}
    async loadData(): Promise<unknown> {
      return null;
    }
    async saveData(): Promise<void> {}
    addStatusBarItem(): unknown {
      return element();
    }
    addCommand(c: unknown): unknown {
      return c;
    }
    addSettingTab(): void {}
    registerView(): void {}
    registerEvent(): void {}
    registerObsidianProtocolHandler(): void {}
    registerDomEvent(): void {}
    registerInterval(id: number): number {
      return id;
    }
    register(): void {}
  }
  class Base {
    constructor(readonly app: unknown) {}
  }
  const Platform = { isDesktop: true, isDesktopApp: true, isMobile: false, isMobileApp: false, isIosApp: false, isAndroidApp: false };
  return { Plugin, Notice: class {}, ItemView: Base, Modal: Base, SuggestModal: Base, PluginSettingTab: Base, Setting: Base, Platform };
}

function app(): unknown {
  const events = { on: () => ({}), offref: () => undefined };
  return {
    vault: { ...events, getName: () => 'bench', adapter: {}, getMarkdownFiles: () => [], getAbstractFileByPath: () => null },
    metadataCache: { ...events, resolved: false },
    fileManager: {},
    workspace: { ...events, onLayoutReady: () => undefined, getLeavesOfType: () => [], getActiveFile: () => null },
  };
}

/** One fresh context per sample (Obsidian evaluates main.js once per enable); median of `samples` onload times. */
export async function measurePluginOnload(code: string, samples = 7): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const mod: { exports: Record<string, unknown> } = { exports: {} };
    const obsidian = obsidianModule();
    const globals: Record<string, unknown> = {
      module: mod,
      exports: mod.exports,
      require: (id: string) => {
        if (id === 'obsidian') return obsidian;
        throw new Error(`onload required "${id}"`);
      },
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      queueMicrotask,
      TextEncoder,
      TextDecoder,
      crypto: webcrypto,
      performance,
      console,
    };
    const context = vm.createContext(globals);
    globals.window = context;
    globals.self = context;
    // As Obsidian does (and test/plugin/plugin-harness.ts's runMainJs): a function body, so top-level declarations stay off the global.
    const body = vm.compileFunction(code, ['require', 'module', 'exports'], { parsingContext: context, filename: 'main.js' }) as (...args: unknown[]) => void;
    body(globals.require, mod, mod.exports);
    const PluginClass = mod.exports.default as new (app: unknown, manifest: unknown) => { onload(): Promise<void> };
    const plugin = new PluginClass(app(), { id: 'lithos-memory', version: '0.0.0' });
    const t0 = performance.now();
    await plugin.onload();
    times.push(performance.now() - t0);
  }
  return percentile(times, 50);
}

/** The figure for the bench report: NaN when there is no built plugin (the bench run from sources). */
export async function pluginOnloadFigure(path = builtPluginPath()): Promise<number> {
  if (!existsSync(path)) return NaN;
  return measurePluginOnload(readFileSync(path, 'utf8'));
}
