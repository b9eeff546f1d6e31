import { labelWords } from '../model/tags';

/** What of a live note (vault/note-indexer.ts LiveNote) its words come from: declared here, so the indexer may hold this index. */
export interface WordedNote {
  nodeId: string;
  cached: { meta: { tags: readonly string[]; entities: readonly string[]; note_type: string } };
}

/** Distinct labels whose words are remembered; past this the memo starts again (labels repeat across notes). */
const MEMO_MAX = 50_000;

/**
 * Word → ids of the notes whose tags or entities hold it (labelWords), or whose note type it is: what the
 * tags scout looks a query's terms up in. Built from the indexer's notes at the first lookup (~25 ms at 10k
 * notes), then kept per changed note, so no later retrieval splits every note's labels again.
 */
export class NoteWords {
  private built = false;
  /** word → node ids, each once, in no order */
  private readonly byWord = new Map<string, string[]>();
  /** node id → the note its words were taken from, and those words (each once) */
  private readonly ofNote = new Map<string, { note: WordedNote; words: string[] }>();
  private readonly memo = new Map<string, string[]>();

  /** `notes`: the indexer's notes by node id, read at the first lookup. */
  constructor(private readonly notes: ReadonlyMap<string, WordedNote>) {}

  /** The note as the indexer now holds it under its node id (before the first lookup, nothing to do). */
  set(note: WordedNote): void {
    if (this.built) this.add(note);
  }

  private add(note: WordedNote): void {
    this.drop(note.nodeId);
    const m = note.cached.meta;
    const words: string[] = [];
    for (const label of m.tags) this.collect(label, words);
    for (const label of m.entities) this.collect(label, words);
    if (!words.includes(m.note_type)) words.push(m.note_type);
    for (const w of words) {
      const ids = this.byWord.get(w);
      if (ids) ids.push(note.nodeId);
      else this.byWord.set(w, [note.nodeId]);
    }
    this.ofNote.set(note.nodeId, { note, words: words.slice() }); // sized to fit: a pushed-to list keeps room for 17
  }

  /** The indexer let go of this note (no-op when its node id already names a newer one). */
  delete(note: WordedNote): void {
    if (this.ofNote.get(note.nodeId)?.note === note) this.drop(note.nodeId);
  }

  /** Ids of notes holding `word`, each once; empty when none. */
  with(word: string): readonly string[] {
    if (!this.built) {
      this.built = true;
      for (const note of this.notes.values()) this.add(note);
    }
    return this.byWord.get(word) ?? NONE;
  }

  private collect(label: string, into: string[]): void {
    let words = this.memo.get(label);
    if (!words) {
      if (this.memo.size >= MEMO_MAX) this.memo.clear();
      this.memo.set(label, (words = labelWords(label)));
    }
    for (const w of words) if (!into.includes(w)) into.push(w);
  }

  private drop(id: string): void {
    const entry = this.ofNote.get(id);
    if (!entry) return;
    this.ofNote.delete(id);
    for (const w of entry.words) {
      const ids = this.byWord.get(w)!;
      if (ids.length === 1) this.byWord.delete(w);
      else {
        const i = ids.indexOf(id);
        ids[i] = ids[ids.length - 1];
        ids.pop();
      }
    }
  }
}

const NONE: readonly string[] = [];
