/**
 * Mounting the real panels on the fake obsidian runtime in jsdom. Spec files start with
 *   @jest-environment jsdom
 *   @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 * in their docblock (Node builds of yaml and sql.js, not the ESM browser ones), then
 *   jest.mock('obsidian', () => jest.requireActual('../plugin/fake-obsidian-dom'), { virtual: true });
 * so `obsidian` is the fake in the panel code and here alike.
 */
import './jsdom-globals';
import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';
import { App, Plugin, obsidianRecord, type ItemView, type WorkspaceLeaf } from '../plugin/fake-obsidian-dom';
import { registerPanels } from '../../plugin/panels';
import type { PanelType } from '../../plugin/panels/panel-types';
import type { PanelView } from '../../plugin/panels/panel-view';
import { panelContext, type TestPanelContext } from '../preview/panel-host';
import type { ExampleWorld } from './example-world';
import type * as Obsidian from 'obsidian';

/** sql.js with its wasm handed over: under jsdom it would otherwise try to fetch() it. */
export function jsdomSql() {
  return initSqlJs({ wasmBinary: readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm')) as unknown as ArrayBuffer });
}

export interface Mounted {
  app: App;
  plugin: Plugin;
  ctx: TestPanelContext;
  open<V extends PanelView>(type: PanelType): Promise<V>;
}

/** A plugin with the panels registered against the world's engine. */
export function mountPanels(world: Pick<ExampleWorld, 'engine'> | null): Mounted {
  obsidianRecord.reset();
  const app = new App();
  const plugin = new Plugin(app);
  const ctx = panelContext(world?.engine ?? null);
  registerPanels(plugin as unknown as Obsidian.Plugin, ctx);
  return {
    app,
    plugin,
    ctx,
    async open<V extends PanelView>(type: PanelType): Promise<V> {
      const leaf: WorkspaceLeaf = app.workspace.getRightLeaf();
      await leaf.setViewState({ type });
      document.body.appendChild(leaf.containerEl);
      const view = leaf.view as ItemView as unknown as V;
      await view.rendered;
      return view;
    },
  };
}

/** The text of every element matching `sel` under `root`. */
export function texts(root: ParentNode, sel: string): string[] {
  return Array.from(root.querySelectorAll(sel)).map((e) => (e.textContent ?? '').trim());
}

/**
 * Lets the work a click started finish: tool calls over the in-memory twins take a few turns of the event
 * loop, then the view's re-render. No clock involved: it waits for turns, not for time.
 */
export async function settle(view?: { rendered: Promise<void> }): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 0));
  if (view) await view.rendered;
}

/** Clicks an element and settles. */
export async function click(el: Element | null, view?: { rendered: Promise<void> }): Promise<void> {
  if (!el) throw new Error('nothing to click');
  (el as HTMLElement).click();
  await settle(view);
}
