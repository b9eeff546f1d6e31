/**
 * The notes a session's viewer may see, and nothing else. A note it may not see does not exist here: lookups
 * answer null (or not_found, with the same message as for no note at all), lists leave it out, and a link into
 * it reads as unresolved, so its existence never leaks through a front door.
 */
import { LithosError } from '../errors';
import { gateFor, gatedNote, type GatedNote } from '../governance/gate';
import { isGeneratedPage } from '../ledger/generated-pages';
import type { EngineSearchHit, SearchOptions } from '../index/note-queries';
import type { NoteType, ParsedNote } from '../model/types';
import type { LiveNote } from '../vault/note-indexer';
import type { ResolvedLink } from '../vault/link-graph';
import { checkNotePath } from '../vault/note-path';
import { deleteNote, writeNote, type NoteDeleteOutcome, type NoteWrite, type NoteWriteOutcome, type WriteTarget } from './note-writes';
import type { Services } from './services';
import type { SessionScope } from './session-scope';

/** A note named by exactly one of id, path or title (an alias counts as a title). */
export type NoteRef = { id?: string; path?: string; title?: string };

export class NotesRoom {
  constructor(
    private readonly services: Services,
    private readonly who: SessionScope,
  ) {}

  /** Whether the viewer may see this note (metadata and path as the gate judges them). */
  sees(note: GatedNote | LiveNote): boolean {
    return gateFor(this.who.viewer)('cached' in note ? gatedNote(note) : note);
  }

  /** Whether the viewer may see the note with exactly this id (ids only: a path or title is not an id). */
  seesId(id: string): boolean {
    return this.byId(id) !== null;
  }

  /** The note with exactly this id, when the viewer may see it. */
  byId(id: string): LiveNote | null {
    const n = this.services.notes.note(id);
    return n !== null && n.nodeId === id && this.sees(n) ? n : null;
  }

  /**
   * The note a ledger ID names among those the viewer sees: the full ID's, or the short ID's while exactly one
   * `E007-*` is visible (so an entry it may not see neither resolves nor makes the short form ambiguous).
   */
  byLedgerId(ref: string): LiveNote | null {
    const seen = this.services.notes.byLedgerId(ref).filter((n) => this.sees(n));
    return seen.length === 1 || (seen.length > 1 && ref.includes('-')) ? seen[0] : null;
  }

  /** The note an id, path, title or alias names, when the viewer may see it. */
  get(ref: string): LiveNote | null {
    const n = this.services.notes.note(ref);
    return n !== null && this.sees(n) ? n : null;
  }

  /** The note at this path (in any case or Unicode form the disk treats as the same), when the viewer may see it. */
  atPath(path: string): LiveNote | null {
    const n = this.services.notes.noteAtPath(path);
    return n !== null && this.sees(n) ? n : null;
  }

  /** The note a reference names; not_found when there is none or the viewer may not see it. */
  find(ref: NoteRef): LiveNote {
    let note: LiveNote | null;
    let shown: string;
    if (ref.path !== undefined) {
      const p = checkNotePath(ref.path);
      // A path names a file (in any case or Unicode form), not a title that happens to match.
      note = this.atPath(p);
      shown = `at "${p}"`;
    } else if (ref.id !== undefined) {
      note = this.byId(ref.id) ?? this.byLedgerId(ref.id);
      shown = `with id "${ref.id}"`;
    } else {
      note = this.get(ref.title ?? '');
      shown = `titled "${ref.title ?? ''}"`;
    }
    if (!note) throw new LithosError('not_found', `No note ${shown}. Use lithos_search or lithos_list to find notes.`, { ...ref });
    return note;
  }

  /** A note id or vault path (`from`, `to`, `node` of the edge tools). */
  findByIdOrPath(ref: string): LiveNote {
    return /\.md$/i.test(ref) ? this.find({ path: ref }) : this.find({ id: ref });
  }

  /** Every note the viewer may see, in index order. */
  all(): LiveNote[] {
    return this.services.notes.notes().filter((n) => this.sees(n));
  }

  /** The note as it is on disk now; not_found when the viewer may not see it (it may have changed since indexing). */
  async read(note: LiveNote): Promise<ParsedNote> {
    const parsed = await this.services.notes.parse(note.path);
    if (!this.sees({ ...parsed.meta, path: parsed.path })) throw new LithosError('not_found', `No note at "${note.path}".`, { path: note.path });
    return parsed;
  }

  /**
   * The note's outgoing links as the viewer may know them: one into a note it may not see reads as unresolved,
   * exactly as a link to no note at all. Attachments stay as they resolve.
   */
  links(path: string): ResolvedLink[] {
    return this.services.notes.links(path).map((r) => {
      if (r.targetPath === null) return r;
      const n = this.services.notes.note(r.targetPath);
      return n && n.path === r.targetPath && !this.sees(n) ? { ...r, targetPath: null } : r;
    });
  }

  /** Paths of the notes linking here that the viewer may see. */
  backlinks(path: string): string[] {
    return this.services.notes.backlinks(path).filter((p) => this.atPath(p) !== null);
  }

  /** Search over the notes the viewer may see (k counts only those), the engine's own pages (graveyard, briefing, timeline) left out. */
  search(query: string, opts: Omit<SearchOptions, 'allow'> = {}): Promise<EngineSearchHit[]> {
    return this.services.search.search(query, { ...opts, allow: (id) => this.searchable(id) });
  }

  /** Notes like this one that the viewer may see, the engine's own pages left out. */
  similar(id: string, opts: { k?: number } = {}): Promise<EngineSearchHit[]> {
    return this.services.search.similar(id, { ...opts, allow: (x) => this.searchable(x) });
  }

  private searchable(id: string): boolean {
    const n = this.byId(id);
    return n !== null && !isGeneratedPage({ path: n.path, tags: n.cached.meta.tags });
  }

  /**
   * Writes a note under the vault's write policy (session/note-writes.ts): refused, or kept as a proposal
   * where a person confirms agent changes. `tool` names the front door when an agent gives no id.
   */
  write(target: WriteTarget, w: NoteWrite, tool: string): Promise<NoteWriteOutcome> {
    return writeNote(this.services, this.who, (n) => this.sees(n), target, w, tool);
  }

  /**
   * Deletes a note the viewer sees, where the write policy lets it (never a proposal namespace for an agent),
   * or keeps an agent's delete of the person's note as a proposal (governance/trust-boundary.ts).
   */
  delete(note: LiveNote, opts: { expectedVersion?: string; trash?: boolean }, tool: string): Promise<NoteDeleteOutcome> {
    return deleteNote(this.services, this.who, (n) => this.sees(n), note, opts, tool);
  }

  /**
   * The person's "Set note type": note_type in the note's frontmatter, and nothing else, changes (the host's
   * processFrontMatter), audited as the person. Agents change notes through lithos_write, under the write
   * policy, so they are refused here. Returns whether the type changed.
   */
  async setNoteType(path: string, type: NoteType): Promise<boolean> {
    if (!this.who.isPerson) throw new LithosError('forbidden', 'Only the person sets a note type here; an agent changes a note with lithos_write.', { path });
    // The exact path: an edit names the file, not a title or a case variant of it.
    const note = this.services.notes.note(path);
    if (!note || note.path !== path || !this.sees(note)) throw new LithosError('not_found', `No note at ${path}.`, { path });
    const before = note.cached.meta.note_type;
    if (before === type) return false;
    await this.services.notes.updateFrontmatter(path, (fm) => {
      fm.note_type = type;
    });
    await this.services.governance.audit.append({ action: 'note.write', actor: this.who.auditActor, target: note.nodeId, data: { path, field: 'note_type', before, after: type } });
    return true;
  }
}
