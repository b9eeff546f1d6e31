import type { Command, EventRef } from 'obsidian';
import type { FakeApp } from './fake-obsidian';

/**
 * What `require('obsidian')` returns to the built plugin (test/build.test.ts, test/plugin/plugin-harness.ts):
 * the runtime classes plugin/ uses (Plugin, Notice, SuggestModal, Setting, PluginSettingTab, ItemView,
 * Modal, Platform), recording what the plugin does with them. No DOM: elements are FakeElements.
 */

/** A status bar item / suggestion row: standard DOM properties plus Obsidian's createEl helpers. */
export class FakeElement {
  textContent: string | null = null;
  readonly classes = new Set<string>();
  readonly attrs = new Map<string, string>();
  readonly children: FakeElement[] = [];
  readonly listeners = new Map<string, Set<(ev: unknown) => unknown>>();
  readonly classList = {
    add: (...tokens: string[]): void => tokens.forEach((t) => this.classes.add(t)),
    toggle: (token: string, force?: boolean): boolean => {
      const on = force ?? !this.classes.has(token);
      if (on) this.classes.add(token);
      else this.classes.delete(token);
      return on;
    },
  };

  constructor(readonly tag = 'div') {}

  setAttribute(name: string, value: string): void {
    this.attrs.set(name, value);
  }
  removeAttribute(name: string): void {
    this.attrs.delete(name);
  }
  createEl(tag: string, o: { cls?: string; text?: string } = {}): FakeElement {
    const child = new FakeElement(tag);
    if (o.cls) child.classes.add(o.cls);
    if (o.text !== undefined) child.textContent = o.text;
    this.children.push(child);
    return child;
  }
  createDiv(o: { cls?: string; text?: string } = {}): FakeElement {
    return this.createEl('div', o);
  }
  empty(): void {
    this.children.length = 0;
  }
  addEventListener(type: string, fn: (ev: unknown) => unknown): void {
    const set = this.listeners.get(type) ?? new Set();
    this.listeners.set(type, set);
    set.add(fn);
  }
  removeEventListener(type: string, fn: (ev: unknown) => unknown): void {
    this.listeners.get(type)?.delete(fn);
  }
  /** A user's click (or any event) on this element. */
  dispatch(type: string): void {
    for (const fn of this.listeners.get(type) ?? []) fn({ type });
  }
}

/**
 * One control of a Setting row. `change(v)` is the user editing it and committing the edit (for a text field:
 * typing, then Enter or leaving it); `type(v)` is typing only, firing onChange but not the DOM `change`.
 */
export interface FakeControl {
  kind: 'toggle' | 'text' | 'textarea' | 'dropdown' | 'button';
  value: unknown;
  options?: Record<string, string>;
  /** The message the field reports, as setCustomValidity left it. */
  validity: string;
  change(v?: unknown): Promise<unknown>;
  type(v: string): unknown;
}

/** Obsidian's Setting builder, recording its rows on the tab it belongs to. */
export class FakeSetting {
  name = '';
  desc = '';
  heading = false;
  readonly controls: FakeControl[] = [];
  /** Obsidian's Setting.descEl: the plugin adds live elements (a progress bar) under the description. */
  readonly descEl = new FakeElement();

  constructor(containerEl: FakeElement & { settings?: FakeSetting[] }) {
    (containerEl.settings ??= []).push(this);
  }
  setName(n: string): this {
    this.name = n;
    return this;
  }
  setDesc(d: string): this {
    this.desc = d;
    return this;
  }
  setHeading(): this {
    this.heading = true;
    return this;
  }
  private control(kind: FakeControl['kind']): FakeControl & Record<string, unknown> {
    let onChange: (v: unknown) => unknown = () => undefined;
    const commits: (() => unknown)[] = [];
    const inputEl = {
      value: '',
      setCustomValidity: (m: string) => void (c.validity = m),
      reportValidity: () => c.validity === '',
      // The real listener's return value is dropped by the DOM; kept here so a spec can await the save.
      addEventListener: (type: string, fn: () => unknown) => void (type === 'change' && commits.push(fn)),
    };
    const c: FakeControl & Record<string, unknown> = {
      kind,
      value: undefined,
      validity: '',
      type: (v: string) => {
        c.value = inputEl.value = v;
        return onChange(v);
      },
      change: async (v?: unknown) => {
        c.value = v;
        if (typeof v === 'string') inputEl.value = v;
        await onChange(v);
        await Promise.all(commits.map((fn) => fn()));
      },
    };
    const self = c as Record<string, unknown>;
    self.setValue = (v: unknown) => ((c.value = v), typeof v === 'string' && (inputEl.value = v), self);
    self.setPlaceholder = () => self;
    self.setButtonText = () => self;
    self.onChange = (fn: (v: unknown) => unknown) => ((onChange = fn), self);
    self.onClick = (fn: () => unknown) => ((onChange = () => fn()), self);
    self.addOption = (v: string, label: string) => (((c.options ??= {})[v] = label), self);
    self.inputEl = inputEl;
    this.controls.push(c);
    return c;
  }
  addToggle(cb: (c: never) => unknown): this {
    cb(this.control('toggle') as never);
    return this;
  }
  addText(cb: (c: never) => unknown): this {
    cb(this.control('text') as never);
    return this;
  }
  addTextArea(cb: (c: never) => unknown): this {
    cb(this.control('textarea') as never);
    return this;
  }
  addDropdown(cb: (c: never) => unknown): this {
    cb(this.control('dropdown') as never);
    return this;
  }
  addButton(cb: (c: never) => unknown): this {
    cb(this.control('button') as never);
    return this;
  }
}

export class FakeSettingTab {
  readonly containerEl = new FakeElement() as FakeElement & { settings?: FakeSetting[] };
  constructor(
    readonly app: FakeApp,
    readonly plugin: unknown,
  ) {}
  /** PluginSettingTab.hide: Obsidian calls it when the tab closes. */
  hide(): void {
    this.hidden++;
  }
  hidden = 0;
  /** The rows display() built (it empties the container first, so only the last rendering counts). */
  get settings(): FakeSetting[] {
    return this.containerEl.settings ?? [];
  }
  find(name: string): FakeSetting {
    const s = this.settings.find((x) => x.name === name);
    if (!s) throw new Error(`no setting named "${name}" (have: ${this.settings.map((x) => x.name).join(', ')})`);
    return s;
  }
}

export interface ObsidianModuleRecord {
  notices: string[];
  modals: FakeSuggestModal[];
  plugins: FakePlugin[];
}

/** Plugin data (data.json) shared by every instance made from one module, as on disk. */
export interface FakeDataStore {
  data: unknown;
  saves: number;
  /** Every saved value, in order. */
  history?: unknown[];
}

export class FakePlugin {
  readonly commands: Command[] = [];
  readonly events: EventRef[] = [];
  readonly statusItems: FakeElement[] = [];
  readonly views = new Map<string, unknown>();
  readonly settingTabs: FakeSettingTab[] = [];
  readonly intervals: number[] = [];
  private readonly cleanups: (() => void)[] = [];
  /** Set by createObsidianModule: where loadData/saveData read and write. */
  store: FakeDataStore = { data: null, saves: 0 };

  constructor(
    readonly app: FakeApp,
    readonly manifest: unknown,
  ) {}

  async loadData(): Promise<unknown> {
    return this.store.data === null ? null : JSON.parse(JSON.stringify(this.store.data));
  }
  async saveData(data: unknown): Promise<void> {
    this.store.data = JSON.parse(JSON.stringify(data));
    this.store.saves++;
    (this.store.history ??= []).push(this.store.data);
  }
  registerView(type: string, make: unknown): void {
    this.views.set(type, make);
  }
  addSettingTab(tab: FakeSettingTab): void {
    this.settingTabs.push(tab);
  }
  registerDomEvent(el: FakeElement, type: string, fn: (ev: unknown) => unknown): void {
    el.addEventListener(type, fn);
    this.cleanups.push(() => el.removeEventListener(type, fn));
  }
  registerInterval(id: number): number {
    this.intervals.push(id);
    this.cleanups.push(() => clearInterval(id));
    return id;
  }
  register(cb: () => unknown): void {
    this.cleanups.push(() => void cb());
  }
  /** What Obsidian does when the plugin is disabled: onunload, then every registered event, DOM listener and interval goes. */
  unload(): void {
    (this as unknown as { onunload?: () => void }).onunload?.();
    for (const ref of this.events.splice(0)) {
      this.app.vault.offref(ref);
      this.app.metadataCache.offref(ref);
    }
    for (const c of this.cleanups.splice(0)) c();
    this.statusItems.length = 0;
  }

  addStatusBarItem(): FakeElement {
    const el = new FakeElement();
    this.statusItems.push(el);
    return el;
  }
  addCommand(command: Command): Command {
    this.commands.push(command);
    return command;
  }
  registerEvent(ref: EventRef): void {
    this.events.push(ref);
  }
  readonly protocolHandlers = new Map<string, (params: Record<string, string>) => unknown>();
  registerObsidianProtocolHandler(action: string, handler: (params: Record<string, string>) => unknown): void {
    this.protocolHandlers.set(action, handler);
  }
  /** Runs a command the way Obsidian does, by its id without the plugin prefix. */
  runCommand(id: string): void {
    const cmd = this.commands.find((c) => c.id === id);
    if (!cmd?.callback) throw new Error(`no command ${id}`);
    cmd.callback();
  }
}

export class FakeSuggestModal {
  placeholder = '';
  emptyStateText = '';
  opened = false;

  constructor(readonly app: FakeApp) {}
  setPlaceholder(p: string): void {
    this.placeholder = p;
  }
  open(): void {
    this.opened = true;
  }
}

export function createObsidianModule(opts: { desktop?: boolean; store?: FakeDataStore } = {}): { module: Record<string, unknown>; record: ObsidianModuleRecord; store: FakeDataStore } {
  const record: ObsidianModuleRecord = { notices: [], modals: [], plugins: [] };
  const store = opts.store ?? { data: null, saves: 0 };
  class Plugin extends FakePlugin {
    constructor(app: FakeApp, manifest: unknown) {
      super(app, manifest);
      this.store = store;
      record.plugins.push(this);
    }
  }
  /** Defined so the panels' classes can extend them when the bundle is evaluated; views are not rendered here (test/panels does that in jsdom). */
  class ItemView {
    constructor(readonly leaf: unknown) {}
  }
  class Modal {
    constructor(readonly app: FakeApp) {}
  }
  const desktop = opts.desktop ?? false;
  const Platform = { isDesktop: desktop, isDesktopApp: desktop, isMobile: !desktop, isMobileApp: !desktop, isIosApp: false, isAndroidApp: !desktop };
  class SuggestModal extends FakeSuggestModal {
    constructor(app: FakeApp) {
      super(app);
      record.modals.push(this);
    }
  }
  class Notice {
    constructor(message: string) {
      record.notices.push(message);
    }
  }
  return { module: { Plugin, SuggestModal, Notice, ItemView, Modal, Platform, Setting: FakeSetting, PluginSettingTab: FakeSettingTab }, record, store };
}
