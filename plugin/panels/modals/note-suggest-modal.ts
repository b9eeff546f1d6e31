import { SuggestModal, type App } from 'obsidian';
import type { NotesRoom } from '../../../shared/session/notes-room';

export interface NoteChoice {
  id: string;
  path: string;
  title: string;
}

const MAX_SUGGESTIONS = 50;

/** Pick another note of the vault by title or path (the target of an edge or a conflict, a merge note). */
export class NoteSuggestModal extends SuggestModal<NoteChoice> {
  constructor(
    app: App,
    /** The person's notes (the memory session's notes room). */
    private readonly notes: Pick<NotesRoom, 'all'>,
    placeholder: string,
    private readonly onChoose: (note: NoteChoice) => void,
    private readonly exclude: ReadonlySet<string> = new Set(),
  ) {
    super(app);
    this.setPlaceholder(placeholder);
    this.emptyStateText = 'No note matches.';
  }

  getSuggestions(query: string): NoteChoice[] {
    const q = query.trim().toLowerCase();
    const out: NoteChoice[] = [];
    for (const n of this.notes.all()) {
      if (this.exclude.has(n.path)) continue;
      const title = n.cached.meta.title || n.path;
      if (q && !title.toLowerCase().includes(q) && !n.path.toLowerCase().includes(q)) continue;
      out.push({ id: n.nodeId, path: n.path, title });
    }
    // Titles that start with the query first, then alphabetical: the usual quick-switcher feel.
    const starts = (c: NoteChoice): number => (q && c.title.toLowerCase().startsWith(q) ? 0 : 1);
    return out.sort((a, b) => starts(a) - starts(b) || a.title.localeCompare(b.title)).slice(0, MAX_SUGGESTIONS);
  }

  renderSuggestion(note: NoteChoice, el: HTMLElement): void {
    el.createDiv({ cls: 'lithos-suggestion-title', text: note.title });
    el.createEl('small', { cls: 'lithos-suggestion-path', text: note.path });
  }

  onChooseSuggestion(note: NoteChoice): void {
    this.onChoose(note);
  }
}
