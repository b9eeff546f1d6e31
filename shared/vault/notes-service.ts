/**
 * Notes as the rest of the engine sees them: found by id, path, title or alias (note-lookup.ts), their
 * wiki-links both ways (link-graph.ts), their current bytes parsed, and every write the engine makes to
 * them — through the vault port, re-indexed at once and audited (audited-writes.ts).
 */
import type { Clock, VaultPort } from '../ports';
import type { LinkResolver } from '../model/resolve';
import type { ParsedNote } from '../model/types';
import type { LedgerKind } from '../model/ledger';
import { parseNote } from '../model/note';
import type { AuditActor, AuditLog } from '../governance/audit';
import { normalizeVaultPath } from '../model/paths';
import { liveNoteAtPath, lookupNote } from './note-lookup';
import type { LiveNote } from './note-indexer';
import type { LinkGraph, ResolvedLink } from './link-graph';
import type { DeleteNoteResult, WriteNoteRequest, WriteNoteResult } from '../model/note-write';
import { AuditedWrites } from './audited-writes';
import { PathLocks } from './path-locks';
import type { LedgerIds } from './ledger-ids';
import { actorFor } from './audited-writes';
import type { NoteEditors, NoteOwnership } from './note-editors';

export interface NotesDeps {
  vault: VaultPort;
  clock: Clock;
  /** Where each write is recorded (governance/audit.ts). */
  audit: AuditLog;
  /** The live notes the indexer holds. */
  live: { readonly byId: ReadonlyMap<string, LiveNote>; readonly byPath: ReadonlyMap<string, LiveNote> };
  resolver: LinkResolver;
  graph: Pick<LinkGraph, 'outgoing' | 'incoming'>;
  /** Re-reads one path now (VaultSync.syncPath). */
  syncPath(path: string): Promise<unknown>;
  /** Throws once the engine is closed. */
  guard(): void;
  /** Allocates ledger IDs for notes of a ledger kind (ledger-ids.ts); without it notes are written without one. */
  ledger?: LedgerIds;
  /** Who created and last changed each note (the trust boundary). */
  editors: NoteEditors;
}

export class NotesService {
  private readonly writes: AuditedWrites;

  constructor(private readonly d: NotesDeps) {
    const liveId = (p: string): string | undefined => d.live.byPath.get(p)?.nodeId;
    const resync = async (p: string): Promise<LiveNote | null> => {
      await d.syncPath(p);
      return d.live.byPath.get(p) ?? null;
    };
    const ledger = d.ledger;
    const allocateLedgerId = ledger ? (kind: LedgerKind, path: string, actor: string | null) => ledger.allocate(kind, path, actorFor(actor)) : undefined;
    this.writes = new AuditedWrites({ vault: d.vault, clock: d.clock, resync, liveId, allocateLedgerId }, d.audit, liveId, new PathLocks(d.vault.caseInsensitive === true), d.editors);
  }

  /** The ledger's ID allocator, when the engine has one (docs/ledger.md#stable-ids). */
  get ledger(): LedgerIds | null {
    return this.d.ledger ?? null;
  }

  /**
   * Re-reads one path now: an edit on disk the watcher has not handed over yet is indexed (and counted as the
   * person's) before an agent's change of the note is judged.
   */
  async refresh(path: string): Promise<void> {
    this.d.guard();
    await this.d.syncPath(normalizeVaultPath(path));
  }

  /** Whose the note is: who created it and who last changed its title or body (note-editors.ts). */
  ownership(note: LiveNote): NoteOwnership {
    return this.d.editors.ownership(note.nodeId, note.cached.meta.author);
  }

  /** A live note by node id, vault path, title or alias (the resolver's rules). */
  note(ref: string): LiveNote | null {
    return lookupNote(this.d.live, this.d.resolver, ref);
  }

  /** The live note at a vault path: exactly, in another Unicode form, or in another case where the disk ignores case. */
  noteAtPath(path: string): LiveNote | null {
    return liveNoteAtPath(this.d.live, this.d.resolver, path, this.d.vault.caseInsensitive === true);
  }

  /** The live notes a ledger ID names: a full ID's holders (two are a duplicate), a short ID's every `E007-*`. */
  byLedgerId(ref: string): LiveNote[] {
    return this.d.resolver.ledgerCandidates(ref).flatMap((p) => this.d.live.byPath.get(p) ?? []);
  }

  notes(): LiveNote[] {
    return [...this.d.live.byPath.values()];
  }

  links(path: string): ResolvedLink[] {
    return this.d.graph.outgoing(path);
  }

  backlinks(path: string): string[] {
    return this.d.graph.incoming(path);
  }

  /** Reads and parses a note's current bytes (for tools that need the raw frontmatter, e.g. migrations). */
  async parse(path: string): Promise<ParsedNote> {
    this.d.guard();
    const p = normalizeVaultPath(path);
    return parseNote(p, await this.d.vault.readBytes(p));
  }

  /**
   * The engine's own frontmatter write (migrations, later lithos_write): goes through the host's
   * processFrontMatter and is re-indexed at once, so the file event that follows finds nothing to do.
   */
  async updateFrontmatter(path: string, fn: (fm: Record<string, unknown>) => void): Promise<void> {
    this.d.guard();
    const p = normalizeVaultPath(path);
    await this.writes.exclusive(p, async () => {
      await this.d.vault.processFrontMatter(p, fn);
      await this.d.syncPath(p);
    });
  }

  /** Creates or updates a note through the vault port, re-indexed at once and audited (audited-writes.ts). */
  writeNote(req: WriteNoteRequest, audit?: AuditActor): Promise<WriteNoteResult> {
    this.d.guard();
    return this.writes.write(req, audit);
  }

  /**
   * The engine's own edit of a note's text (managed callouts; text-edit.ts): every byte outside the edit
   * kept, re-indexed at once, audited as a note write by `audit`; the note's version changes.
   */
  editNoteText(path: string, edit: (text: string, bom: boolean) => string, audit: AuditActor, managed?: string): Promise<boolean> {
    this.d.guard();
    return this.writes.editText(path, edit, audit, managed);
  }

  /** Deletes a note (into `.trash/` when `trash`), re-indexed at once; its edges and stats are tombstoned. */
  deleteNote(path: string, opts: { expectedVersion?: string; trash?: boolean; actor?: string | null } = {}): Promise<DeleteNoteResult> {
    this.d.guard();
    return this.writes.delete(path, opts);
  }
}
