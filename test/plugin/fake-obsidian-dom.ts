/**
 * A minimal typed fake of the `obsidian` runtime for the side panels, on a real DOM (jsdom in the view
 * specs, the browser in the preview page): Obsidian's HTMLElement helpers (createEl, createDiv, empty,
 * setText, addClass, …) polyfilled on the prototypes, and just enough of Component, ItemView,
 * WorkspaceLeaf, Workspace, Modal, SuggestModal, Setting, Notice, setIcon and Plugin to open panels, run
 * commands, drive modals and settings rows. What the plugin does with them is recorded in `obsidianRecord`
 * for assertions.
 */
import type { Command, EventRef, TFile } from 'obsidian';

// ── DOM helpers (Obsidian adds these to every element) ─────────────────

interface ElInfo {
  cls?: string | string[];
  text?: string;
  attr?: Record<string, string | number | boolean | null>;
  title?: string;
  value?: string;
  type?: string;
  placeholder?: string;
  href?: string;
  prepend?: boolean;
}

function applyInfo(el: HTMLElement, o: ElInfo | string | undefined): void {
  if (o === undefined) return;
  if (typeof o === 'string') return void el.classList.add(...o.split(' ').filter(Boolean));
  const cls = Array.isArray(o.cls) ? o.cls : (o.cls ?? '').split(' ');
  for (const c of cls) if (c) el.classList.add(c);
  if (o.text !== undefined) el.textContent = o.text;
  for (const [k, v] of Object.entries(o.attr ?? {})) if (v !== null && v !== false) el.setAttribute(k, String(v));
  if (o.title !== undefined) el.setAttribute('title', o.title);
  if (o.type !== undefined) el.setAttribute('type', o.type);
  if (o.placeholder !== undefined) el.setAttribute('placeholder', o.placeholder);
  if (o.href !== undefined) el.setAttribute('href', o.href);
  if (o.value !== undefined) (el as HTMLInputElement).value = o.value;
}

function make(doc: Document, tag: string, o?: ElInfo | string, parent?: Node): HTMLElement {
  const el = doc.createElement(tag);
  applyInfo(el, o);
  if (parent) {
    if (typeof o === 'object' && o.prepend) parent.insertBefore(el, parent.firstChild);
    else parent.appendChild(el);
  }
  return el;
}

/** Installs Obsidian's element helpers and global create* functions on a window (idempotent). */
export function installDomHelpers(win: Window & typeof globalThis): void {
  const proto = win.Node.prototype as unknown as Record<string, unknown>;
  if (proto.__lithosHelpers) return;
  proto.__lithosHelpers = true;
  const doc = win.document;
  Object.assign(win.Node.prototype, {
    createEl(this: Node, tag: string, o?: ElInfo | string, cb?: (el: HTMLElement) => void): HTMLElement {
      const el = make(doc, tag, o, this);
      cb?.(el);
      return el;
    },
    createDiv(this: Node, o?: ElInfo | string, cb?: (el: HTMLElement) => void): HTMLElement {
      const el = make(doc, 'div', o, this);
      cb?.(el);
      return el;
    },
    createSpan(this: Node, o?: ElInfo | string, cb?: (el: HTMLElement) => void): HTMLElement {
      const el = make(doc, 'span', o, this);
      cb?.(el);
      return el;
    },
    empty(this: Node): void {
      while (this.firstChild) this.removeChild(this.firstChild);
    },
    detach(this: Node): void {
      this.parentNode?.removeChild(this);
    },
    setText(this: Node, text: string): void {
      this.textContent = text;
    },
    appendText(this: Node, text: string): void {
      this.appendChild(doc.createTextNode(text));
    },
  });
  Object.assign(win.Element.prototype, {
    addClass(this: Element, ...c: string[]): void {
      this.classList.add(...c);
    },
    removeClass(this: Element, ...c: string[]): void {
      this.classList.remove(...c);
    },
    toggleClass(this: Element, c: string, on: boolean): void {
      this.classList.toggle(c, on);
    },
    hasClass(this: Element, c: string): boolean {
      return this.classList.contains(c);
    },
    setAttr(this: Element, k: string, v: string | number | boolean | null): void {
      if (v === null || v === false) this.removeAttribute(k);
      else this.setAttribute(k, String(v));
    },
    getText(this: Element): string {
      return this.textContent ?? '';
    },
  });
  Object.assign(win, {
    createEl: (tag: string, o?: ElInfo | string) => make(doc, tag, o),
    createDiv: (o?: ElInfo | string) => make(doc, 'div', o),
    createSpan: (o?: ElInfo | string) => make(doc, 'span', o),
  });
}

if (typeof window !== 'undefined') installDomHelpers(window);

// ── recording ───────────────────────────────────────────────────────────

export const obsidianRecord = {
  notices: [] as string[],
  modals: [] as Modal[],
  reset(): void {
    this.notices.length = 0;
    this.modals.length = 0;
  },
};

// ── Component, views, leaves, workspace ─────────────────────────────────

export class Component {
  readonly intervals: number[] = [];
  private readonly cleanups: (() => void)[] = [];

  registerEvent(ref: EventRef): void {
    const off = (ref as unknown as { off?: () => void }).off;
    if (off) this.cleanups.push(off);
  }
  registerInterval(id: number): number {
    this.intervals.push(id);
    this.cleanups.push(() => window.clearInterval(id));
    return id;
  }
  register(cb: () => unknown): void {
    this.cleanups.push(() => void cb());
  }
  /** Obsidian unloads a view's component when its leaf closes: registered events and intervals go. */
  unload(): void {
    for (const c of this.cleanups.splice(0)) c();
  }
}

type Listener = (...args: unknown[]) => unknown;

export class Workspace {
  private readonly listeners = new Map<string, Set<Listener>>();
  readonly opened: string[] = [];
  readonly leaves: WorkspaceLeaf[] = [];
  readonly revealed: WorkspaceLeaf[] = [];
  private active: TFile | null = null;
  /** View creators by type (Plugin.registerView puts them here). */
  readonly viewCreators = new Map<string, (leaf: WorkspaceLeaf) => ItemView>();

  constructor(readonly app: App) {}

  on(name: string, cb: Listener): EventRef {
    const set = this.listeners.get(name) ?? new Set<Listener>();
    this.listeners.set(name, set);
    set.add(cb);
    return { off: () => set.delete(cb) };
  }
  trigger(name: string, ...args: unknown[]): void {
    for (const cb of this.listeners.get(name) ?? []) cb(...args);
  }
  listenerCount(name: string): number {
    return this.listeners.get(name)?.size ?? 0;
  }
  getActiveFile(): TFile | null {
    return this.active;
  }
  /** Opening a note in the main area: it becomes active and 'file-open' fires. */
  openFile(path: string): TFile {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const file = { path, name, basename: name.replace(/\.md$/, ''), extension: path.endsWith('.md') ? 'md' : '' } as unknown as TFile;
    this.active = file;
    this.trigger('file-open', file);
    return file;
  }
  async openLinkText(linktext: string): Promise<void> {
    this.opened.push(linktext);
  }
  getLeavesOfType(type: string): WorkspaceLeaf[] {
    return this.leaves.filter((l) => l.view?.getViewType() === type);
  }
  getRightLeaf(): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app);
    this.leaves.push(leaf);
    return leaf;
  }
  async revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
    this.revealed.push(leaf);
  }
  onLayoutReady(cb: () => unknown): void {
    cb();
  }
}

export class WorkspaceLeaf {
  view: ItemView | null = null;
  readonly containerEl: HTMLElement;

  constructor(readonly app: App) {
    this.containerEl = document.createElement('div');
    this.containerEl.className = 'workspace-leaf';
  }

  async setViewState(state: { type: string; active?: boolean }): Promise<void> {
    const make = this.app.workspace.viewCreators.get(state.type);
    if (!make) throw new Error(`No view registered for type ${state.type}`);
    await this.open(make(this));
  }

  /** Mounts a view in this leaf and runs its onOpen, as Obsidian does. */
  async open(view: ItemView): Promise<void> {
    this.view = view;
    this.containerEl.appendChild(view.containerEl);
    await view.onOpen();
  }

  async detach(): Promise<void> {
    const v = this.view;
    this.view = null;
    if (!v) return;
    await v.onClose();
    v.unload();
    v.containerEl.remove();
  }
}

export class App {
  readonly workspace: Workspace = new Workspace(this);
}

export abstract class ItemView extends Component {
  readonly app: App;
  readonly containerEl: HTMLElement;
  readonly contentEl: HTMLElement;

  constructor(readonly leaf: WorkspaceLeaf) {
    super();
    this.app = leaf.app;
    this.containerEl = document.createElement('div');
    this.containerEl.className = 'view-content-wrapper';
    this.contentEl = this.containerEl.createDiv({ cls: 'view-content' });
  }

  abstract getViewType(): string;
  abstract getDisplayText(): string;
  getIcon(): string {
    return 'document';
  }
  async onOpen(): Promise<void> {}
  async onClose(): Promise<void> {}
}

// ── modals ──────────────────────────────────────────────────────────────

export class Modal {
  readonly containerEl: HTMLElement;
  readonly modalEl: HTMLElement;
  readonly titleEl: HTMLElement;
  readonly contentEl: HTMLElement;
  isOpen = false;

  constructor(readonly app: App) {
    this.containerEl = document.createElement('div');
    this.containerEl.className = 'modal-container';
    this.modalEl = this.containerEl.createDiv({ cls: 'modal' });
    this.titleEl = this.modalEl.createDiv({ cls: 'modal-title' });
    this.contentEl = this.modalEl.createDiv({ cls: 'modal-content' });
  }

  open(): void {
    this.isOpen = true;
    obsidianRecord.modals.push(this);
    document.body.appendChild(this.containerEl);
    this.onOpen();
  }
  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.containerEl.remove();
    this.onClose();
  }
  onOpen(): void {}
  onClose(): void {}
}

export abstract class SuggestModal<T> extends Modal {
  placeholder = '';
  emptyStateText = '';
  readonly inputEl: HTMLInputElement;
  readonly resultContainerEl: HTMLElement;

  constructor(app: App) {
    super(app);
    this.inputEl = this.modalEl.createEl('input', { cls: 'prompt-input' });
    this.resultContainerEl = this.modalEl.createDiv({ cls: 'prompt-results' });
  }

  setPlaceholder(p: string): void {
    this.placeholder = p;
    this.inputEl.setAttribute('placeholder', p);
  }

  abstract getSuggestions(query: string): T[] | Promise<T[]>;
  abstract renderSuggestion(value: T, el: HTMLElement): void;
  abstract onChooseSuggestion(item: T, evt: MouseEvent | KeyboardEvent): void;

  /** Types `query`, renders the suggestions and returns them (a test or the preview drives the modal). */
  async type(query: string): Promise<T[]> {
    this.inputEl.value = query;
    const items = await this.getSuggestions(query);
    this.resultContainerEl.empty();
    for (const item of items) this.renderSuggestion(item, this.resultContainerEl.createDiv({ cls: 'suggestion-item' }));
    if (!items.length) this.resultContainerEl.createDiv({ cls: 'suggestion-empty', text: this.emptyStateText });
    return items;
  }

  /** Picks a suggestion as Obsidian does: the modal closes first, then onChooseSuggestion runs. */
  choose(item: T): void {
    this.close();
    this.onChooseSuggestion(item, new MouseEvent('click'));
  }
}

// ── settings rows ───────────────────────────────────────────────────────

/** Obsidian's text field: onChange fires on each input event, as in the app. */
export class TextComponent {
  readonly inputEl: HTMLInputElement;
  constructor(containerEl: HTMLElement) {
    this.inputEl = containerEl.createEl('input', { type: 'text' });
  }
  getValue(): string {
    return this.inputEl.value;
  }
  setValue(v: string): this {
    this.inputEl.value = v;
    return this;
  }
  setPlaceholder(p: string): this {
    this.inputEl.placeholder = p;
    return this;
  }
  onChange(cb: (v: string) => unknown): this {
    this.inputEl.addEventListener('input', () => void cb(this.inputEl.value));
    return this;
  }
}

export class ButtonComponent {
  readonly buttonEl: HTMLButtonElement;
  constructor(containerEl: HTMLElement) {
    this.buttonEl = containerEl.createEl('button');
  }
  setButtonText(t: string): this {
    this.buttonEl.textContent = t;
    return this;
  }
  setWarning(): this {
    this.buttonEl.classList.add('mod-warning');
    return this;
  }
  onClick(cb: (evt: MouseEvent) => unknown): this {
    this.buttonEl.addEventListener('click', (e) => void cb(e));
    return this;
  }
}

/** One settings row with Obsidian's class names (setting-item, -name, -description, -control). */
export class Setting {
  readonly settingEl: HTMLElement;
  readonly nameEl: HTMLElement;
  readonly descEl: HTMLElement;
  readonly controlEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    this.settingEl = containerEl.createDiv({ cls: 'setting-item' });
    const info = this.settingEl.createDiv({ cls: 'setting-item-info' });
    this.nameEl = info.createDiv({ cls: 'setting-item-name' });
    this.descEl = info.createDiv({ cls: 'setting-item-description' });
    this.controlEl = this.settingEl.createDiv({ cls: 'setting-item-control' });
  }
  setName(n: string): this {
    this.nameEl.textContent = n;
    return this;
  }
  setDesc(d: string): this {
    this.descEl.textContent = d;
    return this;
  }
  setHeading(): this {
    this.settingEl.classList.add('setting-item-heading');
    return this;
  }
  addText(cb: (c: TextComponent) => unknown): this {
    cb(new TextComponent(this.controlEl));
    return this;
  }
  addButton(cb: (c: ButtonComponent) => unknown): this {
    cb(new ButtonComponent(this.controlEl));
    return this;
  }
}

// ── the rest of the surface the plugin uses ─────────────────────────────

export class Notice {
  constructor(readonly message: string) {
    obsidianRecord.notices.push(message);
  }
}

export function setIcon(parent: HTMLElement, icon: string): void {
  parent.setAttribute('data-icon', icon);
}

export class Plugin extends Component {
  readonly commands: Command[] = [];

  constructor(
    readonly app: App,
    readonly manifest: unknown = { id: 'lithos-memory' },
  ) {
    super();
  }

  registerView(type: string, make: (leaf: WorkspaceLeaf) => ItemView): void {
    this.app.workspace.viewCreators.set(type, make);
  }
  /** obsidian://<action>?… handlers, as Obsidian keeps them. */
  readonly protocolHandlers = new Map<string, (params: Record<string, string>) => unknown>();
  registerObsidianProtocolHandler(action: string, handler: (params: Record<string, string>) => unknown): void {
    this.protocolHandlers.set(action, handler);
  }
  /** What Obsidian does when a link `obsidian://<action>?k=v` is clicked (it adds `action` to the params). */
  openUri(uri: string): void {
    const u = new URL(uri);
    const action = u.host || u.pathname.replace(/^\/+/, '');
    const handler = this.protocolHandlers.get(action);
    if (!handler) throw new Error(`no handler for ${action}`);
    handler({ action, ...Object.fromEntries(u.searchParams) });
  }
  addCommand(command: Command): Command {
    this.commands.push(command);
    return command;
  }
  command(id: string): Command {
    const c = this.commands.find((x) => x.id === id);
    if (!c) throw new Error(`no command ${id}`);
    return c;
  }
}

/** The fake's classes where the plugin expects the `obsidian` module (jest.mock factory, esbuild alias). */
export const MarkdownView = class {};
