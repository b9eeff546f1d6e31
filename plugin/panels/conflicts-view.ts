import type { WorkspaceLeaf } from 'obsidian';
import type { MemorySession } from '../../shared/session/memory-session';
import type { PanelContext } from './context';
import { PanelView } from './panel-view';
import { PANEL_TYPES } from './panel-types';
import type { HumanTools } from './human-tools';
import { conflictSnippets, renderConflictCard } from './conflict-card';
import { conflictHandlers } from './actions';

/** Conflicts: the queue of unreviewed contradictions, both sides side by side, one button per resolution. */
export class ConflictsView extends PanelView {
  constructor(leaf: WorkspaceLeaf, ctx: PanelContext) {
    super(leaf, ctx);
  }

  getViewType(): string {
    return PANEL_TYPES.conflicts;
  }
  getDisplayText(): string {
    return 'Conflicts';
  }
  override getIcon(): string {
    return 'swords';
  }

  protected async draw(root: HTMLElement, memory: MemorySession, tools: HumanTools): Promise<void> {
    root.addClass('lithos-conflicts');
    const queue = await tools.conflicts({ state: 'unreviewed' });
    root.createEl('h4', { cls: 'lithos-panel-title', text: `Unreviewed conflicts (${queue.length})` });
    if (!queue.length) {
      root.createDiv({ cls: 'lithos-empty', text: 'No contradictions waiting for you.' });
      return;
    }
    for (const c of queue) {
      const snippets = await conflictSnippets(memory, c);
      renderConflictCard(root, c, snippets, conflictHandlers(this.app, memory, tools, c, () => void this.refresh()));
    }
  }
}
