import { Modal, type App } from 'obsidian';
import type { ConflictJson } from '../human-tools';
import { renderConflictCard, type ConflictCardHandlers } from '../conflict-card';

/** One conflict with both sides and the resolution buttons; closes once a resolution went through. */
export class ResolveModal extends Modal {
  constructor(
    app: App,
    private readonly conflict: ConflictJson,
    private readonly snippets: { a: string; b: string },
    private readonly handlers: ConflictCardHandlers,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.titleEl.setText('Resolve a conflict');
    this.contentEl.addClass('lithos-resolve-modal');
    renderConflictCard(this.contentEl, this.conflict, this.snippets, {
      ...this.handlers,
      resolve: async (resolution, winner) => {
        await this.handlers.resolve(resolution, winner);
        this.close();
      },
    });
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
