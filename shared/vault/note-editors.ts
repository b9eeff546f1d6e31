/**
 * Whose a note is, for the trust boundary (governance/trust-boundary.ts): a note the person created, or
 * whose title or body the person changed last, is the person's, and an agent's change of it waits for them.
 * The person is every caller that is not an agent: Obsidian and any editor on disk (seen by the watcher or
 * the reconcile), the panels, the CLI. Only the title and the body count: frontmatter the engine keeps
 * (summaries, ids, callout blocks) changes hands without changing whose the note is.
 *
 * Each note's row (memory.sqlite note_editors) holds who created it, who changed it last and a fingerprint
 * of its title and body as that change left them. The engine's own writes record their writer; a note
 * indexed from disk with another fingerprint was changed outside the engine, so by the person. A note first
 * seen without a row (it predates tracking) is the person's unless its `author` is an agent the vault knows.
 */
import type { AuditLog } from '../governance/audit';
import { contentHash } from '../model/hash';
import type { ParsedNote } from '../model/types';
import type { Clock } from '../ports';
import type { MemoryEditors } from '../stores/memory-editors';
import type { NoteEditorRow } from '../stores/memory-types';

export type EditorKind = NoteEditorRow['editor_kind'];

/** Whose a note is: the creator and last editor, and whether they were seen (false: judged by `author`). */
export interface NoteOwnership {
  creator: EditorKind;
  editor: EditorKind;
  /** The agent that made the last change, when an agent did. */
  editor_id: string | null;
  tracked: boolean;
}

export interface NoteEditorsDeps {
  store: Pick<MemoryEditors, 'get' | 'set'>;
  clock: Clock;
  audit: Pick<AuditLog, 'append'>;
  /** Whether a name is an agent the vault knows (registered, or holding a key). */
  isAgent(name: string): boolean;
  /** The body as a writer left it, without the blocks the engine manages in it (callouts). */
  ownText(body: string): string;
  /** The id the index holds for a path. */
  idOf(path: string): string | undefined;
  /** The note on disk now; null when there is none. */
  read(path: string): Promise<ParsedNote | null>;
}

/** Who changes a note through the engine: an agent id, or 'human' or null for the person. */
export type EngineWriter = string | null;
/**
 * The engine's own work (callouts, frontmatter it maintains, consolidation's concept notes): whose a note
 * is stays as it is; a note the engine creates is nobody's to protect (recorded as the agent ENGINE_EDITOR).
 */
export const UPKEEP = Symbol('upkeep');
export const ENGINE_EDITOR = 'lithos';

export function protectedNote(o: NoteOwnership): boolean {
  return o.creator === 'person' || o.editor === 'person';
}

export class NoteEditors {
  /** Paths the engine is writing now → what its re-index saw there (null until it ran). */
  private readonly writing = new Map<string, { nodeId: string; parsed: ParsedNote } | null>();

  constructor(private readonly d: NoteEditorsDeps) {}

  /** Whose the note is now. */
  ownership(nodeId: string, author: unknown): NoteOwnership {
    const row = this.d.store.get(nodeId);
    if (row) return { creator: row.creator_kind, editor: row.editor_kind, editor_id: row.editor, tracked: true };
    const kind = this.byAuthor(author);
    return { creator: kind, editor: kind, editor_id: kind === 'agent' ? String(author).trim() : null, tracked: false };
  }

  /** A note indexed from disk (sync): a new fingerprint there, not written by the engine, is the person's change. */
  async seen(nodeId: string, parsed: ParsedNote): Promise<void> {
    if (this.writing.has(parsed.path)) {
      this.writing.set(parsed.path, { nodeId, parsed });
      return;
    }
    const fp = this.fingerprint(parsed);
    const row = this.d.store.get(nodeId);
    if (row === null) return this.baseline(nodeId, parsed, fp);
    if (row.fingerprint === fp) return;
    await this.record(row, { node_id: nodeId, creator_kind: row.creator_kind, editor_kind: 'person', editor: null, fingerprint: fp, at: this.d.clock.now() }, parsed.path, 'changed on disk');
  }

  /**
   * Runs the engine's write of `path` (fn) and records it: `writer` becomes the last editor when the title
   * or body changed (and the creator of a new note); UPKEEP changes nothing but the fingerprint.
   */
  async around<T>(path: string, writer: EngineWriter | typeof UPKEEP, fn: () => Promise<T>): Promise<T> {
    const id = this.d.idOf(path);
    let existed = id !== undefined;
    if (id !== undefined && this.d.store.get(id) === null) {
      // A note that predates tracking: whose it was is settled before the write changes it.
      const current = await this.d.read(path);
      if (current) await this.baseline(id, current, this.fingerprint(current));
    } else if (id === undefined && writer === UPKEEP) {
      existed = (await this.d.read(path)) !== null; // on disk, not indexed yet: not the engine's creation
    }
    this.writing.set(path, null);
    try {
      return await fn();
    } finally {
      const saw = this.writing.get(path) ?? null;
      this.writing.delete(path);
      if (saw) await this.wrote(saw.nodeId, saw.parsed, writer, existed);
    }
  }

  private async wrote(nodeId: string, parsed: ParsedNote, writer: EngineWriter | typeof UPKEEP, existed: boolean): Promise<void> {
    const fp = this.fingerprint(parsed);
    const row = this.d.store.get(nodeId);
    if (row?.fingerprint === fp) return; // frontmatter only: whose the note is stays
    if (writer === UPKEEP) {
      const at = this.d.clock.now();
      if (row !== null) return this.d.store.set({ ...row, fingerprint: fp, at });
      if (existed) return this.baseline(nodeId, parsed, fp);
      return this.d.store.set({ node_id: nodeId, creator_kind: 'agent', editor_kind: 'agent', editor: ENGINE_EDITOR, fingerprint: fp, at });
    }
    const kind: EditorKind = writer === null || writer === 'human' ? 'person' : 'agent';
    const next: NoteEditorRow = {
      node_id: nodeId,
      creator_kind: row?.creator_kind ?? kind,
      editor_kind: kind,
      editor: kind === 'agent' ? writer : null,
      fingerprint: fp,
      at: this.d.clock.now(),
    };
    await this.record(row, next, parsed.path, kind === 'agent' ? `changed by agent "${writer}"` : 'changed by the person');
  }

  /** Saves the row; a note that becomes the person's, or stops being theirs, is audited. */
  private async record(before: NoteEditorRow | null, next: NoteEditorRow, path: string, why: string): Promise<void> {
    await this.d.store.set(next);
    const was = before === null ? null : protectedNote(own(before));
    const is = protectedNote(own(next));
    if (was === null || was === is) return;
    await this.d.audit.append({
      action: is ? 'note.protected' : 'note.unprotected',
      actor: next.editor_kind === 'agent' ? { kind: 'agent', id: next.editor } : { kind: 'human', id: null },
      target: next.node_id,
      data: { path, why, creator: next.creator_kind, editor: next.editor_kind },
    });
  }

  private baseline(nodeId: string, parsed: ParsedNote, fp: string): Promise<void> {
    const kind = this.byAuthor(parsed.meta.author);
    const editor = kind === 'agent' ? String(parsed.meta.author).trim() : null;
    return this.d.store.set({ node_id: nodeId, creator_kind: kind, editor_kind: kind, editor, fingerprint: fp, at: this.d.clock.now() });
  }

  private byAuthor(author: unknown): EditorKind {
    return typeof author === 'string' && author.trim() !== '' && this.d.isAgent(author.trim()) ? 'agent' : 'person';
  }

  /** Of the title and the body the writer wrote (the whole body, also past the indexed cut). */
  private fingerprint(p: ParsedNote): string {
    return contentHash(`${p.meta.title}\u0000${this.d.ownText(p.fullBody ?? p.body)}`);
  }
}

function own(r: NoteEditorRow): NoteOwnership {
  return { creator: r.creator_kind, editor: r.editor_kind, editor_id: r.editor, tracked: true };
}
