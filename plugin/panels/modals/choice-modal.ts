import { SuggestModal, type App } from 'obsidian';

export interface Choice<T> {
  value: T;
  label: string;
  /** A second, smaller line under the label. */
  detail?: string;
}

/** Pick one of a fixed list, filtered by what the person types (note types, edge types, conflicts). */
export class ChoiceModal<T> extends SuggestModal<Choice<T>> {
  constructor(
    app: App,
    private readonly choices: Choice<T>[],
    placeholder: string,
    private readonly onChoose: (value: T) => void,
  ) {
    super(app);
    this.setPlaceholder(placeholder);
    this.emptyStateText = 'Nothing matches.';
  }

  getSuggestions(query: string): Choice<T>[] {
    const q = query.trim().toLowerCase();
    return q ? this.choices.filter((c) => `${c.label} ${c.detail ?? ''}`.toLowerCase().includes(q)) : this.choices;
  }

  renderSuggestion(choice: Choice<T>, el: HTMLElement): void {
    el.createDiv({ cls: 'lithos-suggestion-title', text: choice.label });
    if (choice.detail) el.createEl('small', { cls: 'lithos-suggestion-detail', text: choice.detail });
  }

  onChooseSuggestion(choice: Choice<T>): void {
    this.onChoose(choice.value);
  }
}
