import { SuggestModal, type App } from 'obsidian';
import type { EngineSearchHit } from '../shared/index/note-queries';

/** Hybrid search over the memory; choosing a hit opens the note. */
export class SearchModal extends SuggestModal<EngineSearchHit> {
  constructor(
    app: App,
    private readonly search: (query: string) => Promise<EngineSearchHit[]>,
    private readonly onError: (err: unknown) => void,
  ) {
    super(app);
    this.setPlaceholder('Search Lithos memory…');
    this.emptyStateText = 'No matching notes.';
  }

  async getSuggestions(query: string): Promise<EngineSearchHit[]> {
    if (query.trim() === '') return [];
    try {
      return await this.search(query);
    } catch (err) {
      this.onError(err);
      return [];
    }
  }

  renderSuggestion(hit: EngineSearchHit, el: HTMLElement): void {
    el.createDiv({ cls: 'lithos-suggestion-title', text: hit.title });
    if (hit.snippet) el.createEl('small', { cls: 'lithos-suggestion-snippet', text: hit.snippet });
    el.createEl('small', { cls: 'lithos-suggestion-path', text: hit.path });
  }

  onChooseSuggestion(hit: EngineSearchHit): void {
    this.app.workspace.openLinkText(hit.path, '', false).catch(this.onError);
  }
}
