/**
 * The preview page (bundled by scripts/screenshots.mjs): the REAL panel code on the fake obsidian runtime,
 * with a real engine running in the page over an in-memory vault filled from examples/vault and the
 * example activity played through the tools. `?panel=<name>&theme=light|dark` picks what to show;
 * `body[data-ready]` says it is drawn (or `data-error` why not).
 */
import '../plugin/fake-obsidian-dom';
import files from 'virtual:example-vault';
import { App, Plugin, type ItemView } from '../plugin/fake-obsidian-dom';
import { MemoryEngine } from '../../shared/engine';
import { loadSql } from '../../plugin/sql-loader';
import { registerPanels } from '../../plugin/panels';
import { PANEL_TYPES } from '../../plugin/panels/panel-types';
import type { PanelView } from '../../plugin/panels/panel-view';
import type { RetrieveView } from '../../plugin/panels/retrieve-view';
import type { ReceiptsView } from '../../plugin/panels/receipts-view';
import { openResolveModal } from '../../plugin/panels/actions';
import { MemoryVault } from '../twins/memory-vault';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { FakeClock } from '../twins/fake-clock';
import { EXAMPLE_NOW, EXAMPLE_PATHS, playExampleActivity } from './example-activity';
import { panelContext } from './panel-host';
import { renderManagedCallouts } from './callout-preview';
import type * as Obsidian from 'obsidian';

const QUARANTINED = 'agent/scout-7/Postgres 16 upgrade removes lock contention.md';

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const panel = params.get('panel') ?? 'note-memory';
  document.body.classList.add(params.get('theme') === 'dark' ? 'theme-dark' : 'theme-light');

  const clock = new FakeClock(EXAMPLE_NOW);
  const vault = new MemoryVault(files);
  const engine = await MemoryEngine.open({ vault, blobs: new MemoryBlobStore(), sql: await loadSql(), clock, timers: clock });
  await engine.reconcile();
  const activity = await playExampleActivity(engine, (ms) => clock.advance(ms));

  const app = new App();
  const plugin = new Plugin(app);
  // Five results keep the retrieve screenshot readable; the panel's default is the engine's (10).
  const ctx = panelContext(engine, { retrieval: { max_nodes: 5 } });
  registerPanels(plugin as unknown as Obsidian.Plugin, ctx);
  const sidebar = document.querySelector<HTMLElement>('.preview-sidebar')!;

  const mount = async <V extends PanelView>(type: string, title: string): Promise<V> => {
    const leaf = app.workspace.getRightLeaf();
    const shell = sidebar.createDiv({ cls: 'workspace-leaf' });
    shell.createDiv({ cls: 'view-header', text: title });
    await leaf.setViewState({ type });
    shell.appendChild(leaf.containerEl);
    const view = leaf.view as ItemView as unknown as V;
    await view.rendered;
    return view;
  };

  switch (panel) {
    case 'note-memory':
      app.workspace.openFile(EXAMPLE_PATHS.poolSize);
      await mount(PANEL_TYPES.noteMemory, 'Note memory');
      break;
    case 'retrieve': {
      const view = await mount<RetrieveView>(PANEL_TYPES.retrieve, 'Retrieve');
      await view.runQuery('ingest p95 latency regression root cause', { queryClass: 'debug' });
      const [first, , third] = view.result?.nodes ?? [];
      if (first) view.toggleMark(first.id, 'cited');
      if (third) view.toggleMark(third.id, 'misleading');
      await view.rendered;
      break;
    }
    case 'conflicts':
      await mount(PANEL_TYPES.conflicts, 'Conflicts');
      break;
    case 'receipts': {
      const view = await mount<ReceiptsView>(PANEL_TYPES.receipts, 'Receipts');
      await view.openReceipt(activity.scoutRetrieval.receipt_id);
      break;
    }
    case 'agents':
      await mount(PANEL_TYPES.agents, 'Agents & tasks');
      break;
    case 'resolve-modal': {
      const [c] = await ctx.tools.conflicts({ state: 'unreviewed' });
      await openResolveModal(app as unknown as Obsidian.App, ctx.memory()!, ctx.tools, c);
      document.body.classList.add('has-modal');
      break;
    }
    case 'callouts': {
      // The managed blocks as the engine wrote them into the notes: a conflict callout, a status callout.
      await engine.services.conflicts.syncCallouts(QUARANTINED);
      const page = sidebar.createDiv({ cls: 'markdown-preview-view' });
      for (const path of [EXAMPLE_PATHS.poolSize, QUARANTINED]) {
        page.createEl('h4', { text: path.slice(path.lastIndexOf('/') + 1, -3) });
        if (!renderManagedCallouts(page, vault.text(path) ?? '')) page.createDiv({ text: '(no managed callout)' });
      }
      break;
    }
    default:
      throw new Error(`unknown panel ${panel}`);
  }
  document.body.dataset.ready = 'true';
}

main().catch((err: unknown) => {
  document.body.dataset.error = err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err);
  document.body.dataset.ready = 'true';
});
