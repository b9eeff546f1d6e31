import type { WorkspaceLeaf } from 'obsidian';
import type { MemorySession } from '../../shared/session/memory-session';
import type { PanelContext } from './context';
import { PanelView } from './panel-view';
import { PANEL_TYPES } from './panel-types';
import type { HumanTools } from './human-tools';
import { conflictSnippets, renderConflictCard } from './conflict-card';
import { conflictHandlers } from './actions';
import { renderDrift } from './drift-section';

/**
 * Conflicts: the queue of unreviewed contradictions, then those newest-wins settled on its own (to confirm or
 * change), both sides side by side, one button per resolution; then the ledger's drift alerts.
 */
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
    // Settled by newest wins between task records / status notes: listed for review, after the open ones.
    const automatic = (await tools.conflicts({ state: 'superseded' })).filter((c) => c.evidence.resolution?.automatic === true);
    root.createEl('h4', { cls: 'lithos-panel-title', text: `Unreviewed conflicts (${queue.length})` });
    if (!queue.length) root.createDiv({ cls: 'lithos-empty', text: 'No contradictions waiting for you.' });
    for (const c of queue) {
      const snippets = await conflictSnippets(memory, c);
      renderConflictCard(root, c, snippets, conflictHandlers(this.app, memory, tools, c, () => void this.refresh()));
    }
    if (automatic.length) root.createEl('h5', { cls: 'lithos-panel-subtitle', text: `Settled automatically, to review (${automatic.length})` });
    for (const c of automatic) {
      const snippets = await conflictSnippets(memory, c);
      renderConflictCard(root, c, snippets, conflictHandlers(this.app, memory, tools, c, () => void this.refresh()));
    }
    renderDrift(root, await memory.drift.alerts(), (p) => this.openNote(p));
  }
}
