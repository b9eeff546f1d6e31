import { ItemView, type WorkspaceLeaf } from 'obsidian';
import { asLithosError } from '../../shared/errors';
import type { MemorySession } from '../../shared/session/memory-session';
import type { PanelChange, PanelContext } from './context';
import type { HumanTools } from './human-tools';

/**
 * What every Lithos side panel shares: it renders from the person's memory when opened and again on each
 * change it cares about, shows why when there is none, and shows a failed render as an error line instead of
 * leaving stale content. Subclasses implement `draw`.
 */
export abstract class PanelView extends ItemView {
  private unsubscribe: (() => void) | null = null;
  /** Renders start in order; a render that a newer one overtook draws nothing. */
  private generation = 0;
  /** The last render, for tests and callers that need to wait for the DOM. */
  rendered: Promise<void> = Promise.resolve();

  constructor(
    leaf: WorkspaceLeaf,
    protected readonly ctx: PanelContext,
  ) {
    super(leaf);
  }

  /** Which changes re-render this panel. */
  protected get followsChanges(): readonly PanelChange[] {
    return ['engine', 'index', 'settings'];
  }

  override async onOpen(): Promise<void> {
    this.contentEl.addClass('lithos-panel');
    this.unsubscribe = this.ctx.onChange((what) => {
      if (this.followsChanges.includes(what)) void this.refresh();
    });
    await this.refresh();
  }

  override async onClose(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.generation++;
  }

  /** Re-renders from the memory now. */
  refresh(): Promise<void> {
    const gen = ++this.generation;
    this.rendered = this.render(gen);
    return this.rendered;
  }

  private async render(gen: number): Promise<void> {
    const memory = this.ctx.memory();
    const root = createDiv({ cls: 'lithos-panel-body' });
    if (!memory) {
      root.createDiv({ cls: 'lithos-empty', text: this.ctx.engineError?.() ?? 'Lithos is opening its memory…' });
    } else {
      try {
        await this.draw(root, memory, this.ctx.tools);
      } catch (err) {
        root.empty();
        root.createDiv({ cls: 'lithos-error', text: `Could not show this panel: ${asLithosError(err).message}` });
      }
    }
    // Built off-screen, swapped in at once: no flicker, and an overtaken render never shows.
    if (gen !== this.generation) return;
    this.contentEl.empty();
    this.contentEl.appendChild(root);
  }

  /** Fills `root` (detached until it is done) from the person's memory and tools. */
  protected abstract draw(root: HTMLElement, memory: MemorySession, tools: HumanTools): Promise<void>;

  /** Opens a note in the main area, as clicking a link does. */
  protected openNote(path: string): void {
    void this.app.workspace.openLinkText(path, '', false);
  }
}
