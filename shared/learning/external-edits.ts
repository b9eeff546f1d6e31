/**
 * Edits made outside the tools (in Obsidian, in another editor, by a sync client) as `external_edit` events. The
 * event takes its note's scope and namespace and names the note in `data.about` (not a link: an edit is not worth
 * keeping forever), which the events room also judges, so a reader sees it only while it may see the note.
 * Saves come every few seconds while a person types: one event per note per EXTERNAL_EDIT_EVERY_MS. Each is
 * audited too (`external.edit`, the same coalescing), so the trail covers changes the engine did not make.
 */
import type { AuditLog } from '../governance/audit';
import type { NotesService } from '../vault/notes-service';
import type { EventLog } from './event-log';

export const EXTERNAL_EDIT_EVERY_MS = 10 * 60 * 1000;
/** Paths remembered for the coalescing; past it the memory starts again (a few more events, never fewer). */
const REMEMBERED = 1_000;

export class ExternalEdits {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly d: { events: EventLog; notes: Pick<NotesService, 'note'>; clock: { now(): number }; audit?: Pick<AuditLog, 'append'> },
  ) {}

  seen(path: string): void {
    const n = this.d.notes.note(path);
    if (!n || n.path !== path) return;
    const now = this.d.clock.now();
    const before = this.last.get(path);
    if (before !== undefined && now - before < EXTERNAL_EDIT_EVERY_MS) return;
    if (this.last.size >= REMEMBERED) this.last.clear();
    this.last.set(path, now);
    const m = n.cached.meta;
    this.d.events.enqueue({
      kind: 'external_edit',
      actor: 'outside the tools',
      actor_kind: 'system',
      access_scope: m.access_scope,
      namespace: m.namespace,
      summary: `${path} was edited outside the tools`,
      data: { path, about: [n.nodeId] },
    });
    // Who made it is unknown (the person, another editor, a sync client): the actor says so.
    void this.d.audit?.append({ action: 'external.edit', actor: { kind: 'system', id: 'outside-the-tools' }, target: n.nodeId, data: { path, version: n.contentHash } }).catch(() => undefined);
  }
}
