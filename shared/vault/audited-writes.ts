import type { AuditActor, AuditLog } from '../governance/audit';
import { normalizeVaultPath } from '../model/paths';
import { deleteNote, writeNote, type NoteWriterHost } from './note-writer';
import type { DeleteNoteResult, WriteNoteRequest, WriteNoteResult } from '../model/note-write';
import { editNoteText } from './text-edit';
import type { PathLocks } from './path-locks';
import { UPKEEP, type NoteEditors } from './note-editors';

/** A writer named by the tools ('human' or an agent id; null: the person at the keyboard). */
export function actorFor(actor: string | null): AuditActor {
  return actor === null || actor === 'human' ? { kind: 'human', id: null } : { kind: 'agent', id: actor };
}

/**
 * The engine's writes to notes: through the vault port, re-indexed at once (so the file event that follows
 * finds nothing to do), and each appended to the audit log. Each runs alone on its path (path-locks.ts):
 * the version check, the write and the audit entry of one caller never interleave with another's.
 */
export class AuditedWrites {
  constructor(
    private readonly host: NoteWriterHost,
    private readonly audit: AuditLog,
    private readonly idOf: (path: string) => string | undefined,
    private readonly locks: PathLocks,
    /** Records who changed each note (the trust boundary); absent: nothing is recorded. */
    private readonly editors?: Pick<NoteEditors, 'around'>,
  ) {}

  /**
   * Runs `fn` with the note at `path` to itself: for a change made outside this class (a frontmatter edit),
   * the engine's upkeep, so whose the note is stays.
   */
  exclusive<T>(path: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.with([path], () => this.recorded(path, UPKEEP, fn));
  }

  private recorded<T>(path: string, writer: string | null | typeof UPKEEP, fn: () => Promise<T>): Promise<T> {
    return this.editors ? this.editors.around(path, writer, fn) : fn();
  }

  /** Creates or updates a note (note-writer.ts); `actor` names who acted when it is not simply `req.actor`. */
  write(req: WriteNoteRequest, actor?: AuditActor): Promise<WriteNoteResult> {
    return this.locks.with([req.path], () => this.writeNow(req, actor));
  }

  private writeNow(req: WriteNoteRequest, actor?: AuditActor): Promise<WriteNoteResult> {
    // Audited inside: a change of whose the note is (note.protected) follows the write that made it.
    // A write the engine makes for itself (a rule: consolidation's concepts) changes nobody's note.
    const engine = actor !== undefined && actor.kind !== 'human' && actor.kind !== 'agent';
    return this.recorded(req.path, engine ? UPKEEP : req.actor, async () => {
      const r = await writeNote(this.host, req);
      await this.audit.append({
        action: 'note.write',
        actor: actor ?? actorFor(req.actor),
        target: r.id,
        data: { path: r.path, version: r.version, previous_version: r.previous_version, created: r.created },
      });
      return r;
    });
  }

  /**
   * The engine's own edit of a note's text (text-edit.ts), audited as a note write naming what it manages
   * (`managed`: callouts, or the graveyard's moves); false when nothing changed.
   */
  editText(path: string, edit: (text: string, bom: boolean) => string, actor: AuditActor, managed = 'callouts'): Promise<boolean> {
    const p = normalizeVaultPath(path);
    return this.locks.with([p], () => this.editTextNow(p, edit, actor, managed));
  }

  private async editTextNow(path: string, edit: (text: string, bom: boolean) => string, actor: AuditActor, managed: string): Promise<boolean> {
    const r = await this.recorded(path, UPKEEP, () => editNoteText(this.host, path, edit));
    if (!r.changed) return false;
    await this.audit.append({
      action: 'note.write',
      actor,
      target: this.idOf(r.path) ?? r.path,
      data: { path: r.path, version: r.version, previous_version: r.previous_version, managed },
    });
    return true;
  }

  /** Deletes a note (into `.trash/` when `trash`); its edges and stats are tombstoned by the resync. */
  delete(path: string, opts: { expectedVersion?: string; trash?: boolean; actor?: string | null }): Promise<DeleteNoteResult> {
    return this.locks.with([path], () => this.deleteNow(path, opts));
  }

  private async deleteNow(path: string, opts: { expectedVersion?: string; trash?: boolean; actor?: string | null }): Promise<DeleteNoteResult> {
    const r = await deleteNote(this.host, path, opts);
    await this.audit.append({ action: 'note.delete', actor: actorFor(opts.actor ?? null), target: r.id ?? r.path, data: { path: r.path, version: r.version, trashed_to: r.trashed_to } });
    return r;
  }
}
