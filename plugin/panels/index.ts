/**
 * The side panels, their commands and modals. main.ts calls `registerPanels(plugin, ctx)` from onload;
 * everything registered here is cleaned up by Obsidian when the plugin unloads (views, commands, events).
 */
import { Notice, type MarkdownView, type Editor, type MarkdownFileInfo, type Plugin, type WorkspaceLeaf } from 'obsidian';
import type { PanelContext } from './context';
import { NoteMemoryView } from './note-memory-view';
import { RetrieveView } from './retrieve-view';
import { ConflictsView } from './conflicts-view';
import { ReceiptsView } from './receipts-view';
import { AgentsView } from './agents-view';
import { ProposalsView } from './proposals-view';
import { PANEL_TYPES, type PanelType } from './panel-types';
import { chooseAndAddEdge, chooseAndMarkContradicting, chooseAndResolveConflict, chooseAndSetNoteType, resolveConflictById } from './actions';
import { RESOLVE_ACTION } from '../../shared/conflicts/callouts';

export type { PanelChange, PanelContext, PanelSettings } from './context';
export { PANEL_TYPES, type PanelType } from './panel-types';

interface PanelSpec {
  type: PanelType;
  command: string;
  name: string;
  make: (leaf: WorkspaceLeaf, ctx: PanelContext) => NoteMemoryView | RetrieveView | ConflictsView | ReceiptsView | AgentsView | ProposalsView;
}

const PANELS: PanelSpec[] = [
  { type: PANEL_TYPES.noteMemory, command: 'open-note-memory', name: 'Open note memory panel', make: (l, c) => new NoteMemoryView(l, c) },
  { type: PANEL_TYPES.retrieve, command: 'open-retrieve', name: 'Open retrieve panel', make: (l, c) => new RetrieveView(l, c) },
  { type: PANEL_TYPES.conflicts, command: 'open-conflicts', name: 'Open conflicts panel', make: (l, c) => new ConflictsView(l, c) },
  { type: PANEL_TYPES.receipts, command: 'open-receipts', name: 'Open receipts panel', make: (l, c) => new ReceiptsView(l, c) },
  { type: PANEL_TYPES.agents, command: 'open-agents', name: 'Open agents & tasks panel', make: (l, c) => new AgentsView(l, c) },
  { type: PANEL_TYPES.proposals, command: 'open-proposals', name: 'Open proposals panel', make: (l, c) => new ProposalsView(l, c) },
];

/** Stable command ids (without Obsidian's `lithos-memory:` prefix) this module registers. */
export const PANEL_COMMAND_IDS = [
  ...PANELS.map((p) => p.command),
  'retrieve-for-selection',
  'set-note-type',
  'add-typed-edge',
  'mark-contradicting',
  'resolve-conflict',
] as const;

export function registerPanels(plugin: Plugin, ctx: PanelContext): void {
  for (const p of PANELS) {
    plugin.registerView(p.type, (leaf) => p.make(leaf, ctx));
    plugin.addCommand({ id: p.command, name: p.name, callback: () => void revealPanel(plugin, p.type) });
  }

  plugin.addCommand({
    id: 'retrieve-for-selection',
    name: 'Retrieve memory for the selection (or the current note)',
    editorCallback: (editor: Editor, view: MarkdownView | MarkdownFileInfo) => {
      const text = editor.getSelection().trim() || titleOf(view) || editor.getValue().slice(0, 2000).trim();
      if (!text) return void new Notice('Lithos: nothing to retrieve for — select some text first.');
      void revealPanel(plugin, PANEL_TYPES.retrieve).then((leaf) => {
        const v = leaf?.view;
        if (v instanceof RetrieveView) void v.runQuery(text);
      });
    },
  });
  plugin.addCommand({ id: 'set-note-type', name: 'Set note type of the current note', callback: () => withActive(plugin, (path) => chooseAndSetNoteType(plugin.app, ctx, path)) });
  plugin.addCommand({ id: 'add-typed-edge', name: 'Add a typed edge from the current note to another note', callback: () => withActive(plugin, (path) => chooseAndAddEdge(plugin.app, ctx, path)) });
  plugin.addCommand({
    id: 'mark-contradicting',
    name: 'Mark the current note as contradicting another note',
    callback: () => withActive(plugin, (path) => chooseAndMarkContradicting(plugin.app, ctx, path)),
  });
  plugin.addCommand({ id: 'resolve-conflict', name: 'Resolve a conflict', callback: () => chooseAndResolveConflict(plugin.app, ctx) });
  // The conflict callouts link here: obsidian://lithos-resolve?edge=<edge_id>.
  plugin.registerObsidianProtocolHandler(RESOLVE_ACTION, (params) => resolveConflictById(plugin.app, ctx, params.edge ?? ''));
}

/** The panel's leaf in the right sidebar, created on first use, revealed and returned. */
export async function revealPanel(plugin: Plugin, type: PanelType): Promise<WorkspaceLeaf | null> {
  const ws = plugin.app.workspace;
  let leaf: WorkspaceLeaf | null = ws.getLeavesOfType(type)[0] ?? null;
  if (!leaf) {
    leaf = ws.getRightLeaf(false);
    if (!leaf) return null;
    await leaf.setViewState({ type, active: true });
  }
  await ws.revealLeaf(leaf);
  return leaf;
}

function withActive(plugin: Plugin, run: (path: string) => void): void {
  const file = plugin.app.workspace.getActiveFile();
  if (!file || file.extension !== 'md') return void new Notice('Lithos: open a note first.');
  run(file.path);
}

function titleOf(view: MarkdownView | MarkdownFileInfo): string {
  return view.file?.basename ?? '';
}
