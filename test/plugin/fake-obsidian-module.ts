import type { Command, EventRef } from 'obsidian';
import type { FakeApp } from './fake-obsidian';

/**
 * What `require('obsidian')` returns to the built plugin in test/build.test.ts: the runtime
 * classes plugin/ uses (Plugin, Notice, SuggestModal), recording what the plugin does with them.
 */

/** A status bar item / suggestion row: standard DOM properties plus Obsidian's createEl helpers. */
export class FakeElement {
  textContent: string | null = null;
  readonly classes = new Set<string>();
  readonly attrs = new Map<string, string>();
  readonly children: FakeElement[] = [];
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
}

export interface ObsidianModuleRecord {
  notices: string[];
  modals: FakeSuggestModal[];
  plugins: FakePlugin[];
}

export class FakePlugin {
  readonly commands: Command[] = [];
  readonly events: EventRef[] = [];
  readonly statusItems: FakeElement[] = [];

  constructor(
    readonly app: FakeApp,
    readonly manifest: unknown,
  ) {}

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

export function createObsidianModule(): { module: Record<string, unknown>; record: ObsidianModuleRecord } {
  const record: ObsidianModuleRecord = { notices: [], modals: [], plugins: [] };
  class Plugin extends FakePlugin {
    constructor(app: FakeApp, manifest: unknown) {
      super(app, manifest);
      record.plugins.push(this);
    }
  }
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
  return { module: { Plugin, SuggestModal, Notice }, record };
}
