/**
 * The person's briefing note (docs/ledger.md → Briefing): the briefing as the person reads it, kept at the
 * path learning.json's `briefing.path` names (`Lithos/Briefing.md` by default; null: none), regenerated a
 * while after notes change. It is the engine's own write (rule `briefing`: audited, never the person's edit)
 * and readable by the person only (`user_private`): it names notes agents may not see, and agents read their
 * own briefing instead (lithos_briefing, lithos://briefing). Only a note that changed starts a regeneration,
 * and an unchanged briefing is not written again, so the note never feeds itself. A vault with nothing to
 * brief (no ledger entry, no open conflict) gets no note.
 */
import type { AuditActor } from '../governance/audit';
import type { Logger, Timers } from '../ports';
import { BRIEFING_TAG, renderBriefing } from '../ledger/briefing';
import { stripMd } from '../model/paths';
import { MemorySession } from './memory-session';
import type { Services } from './services';

/** Who writes the briefing note, in the audit trail. */
export const BRIEFING_RULE: AuditActor = { kind: 'rule', id: 'briefing' };
/** Quiet after the last change before the note is regenerated: a burst of writes makes one regeneration. */
export const BRIEFING_DEBOUNCE_MS = 5000;

export interface BriefingNoteDeps {
  services: Services;
  /** The note's path now (learning.json), null when none is kept. */
  path: () => string | null;
  timers: Timers;
  logger: Logger;
  /** False where this process must not write notes (read-only commands): nothing is scheduled. */
  enabled: boolean;
  debounceMs?: number;
}

/** The briefing's text without its generation time, to tell a changed briefing from a regenerated one. */
const content = (text: string): string => text.replace(/^Generated \S+ /m, 'Generated ');

export class BriefingNote {
  private timer: unknown = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly d: BriefingNoteDeps) {}

  /** A note was (re)indexed: the briefing is regenerated once things are quiet, unless it was the briefing itself. */
  noteChanged(path: string): void {
    if (path !== this.d.path()) this.schedule();
  }

  /** Regenerates once things are quiet (after a full scan: what changed while closed). */
  schedule(): void {
    if (!this.d.enabled || this.stopped) return;
    if (this.timer !== null) this.d.timers.clearTimeout(this.timer);
    this.timer = this.d.timers.setTimeout(() => {
      this.timer = null;
      void this.queue();
    }, this.d.debounceMs ?? BRIEFING_DEBOUNCE_MS);
  }

  /** Runs a pending regeneration now and waits for it (tests, the CLI). */
  async settle(): Promise<void> {
    if (this.timer !== null) {
      this.d.timers.clearTimeout(this.timer);
      this.timer = null;
      await this.queue();
    }
    await this.running;
  }

  /** No more regenerations (the engine closes); the next open regenerates after the next change. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.d.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private queue(): Promise<void> {
    const run = this.running.then(async () => {
      if (!this.stopped) await this.regenerate();
    });
    this.running = run.catch((err: unknown) => this.d.logger.warn('could not regenerate the briefing note', { error: String(err) }));
    return this.running;
  }

  /** Writes the person's briefing at the configured path when it differs from what the note holds; true when written. */
  async regenerate(): Promise<boolean> {
    const path = this.d.path();
    if (path === null) return false;
    const notes = this.d.services.notes;
    const session = new MemorySession({ services: this.d.services, logger: this.d.logger, pendingEvents: () => 0 }, { kind: 'human', agent_id: null });
    const input = await session.briefing.input();
    const current = notes.note(path);
    // A vault without ledger entries or conflicts has nothing to brief: no note is created for it.
    if (!current && input.entries.length === 0 && input.conflicts.length === 0) return false;
    const text = renderBriefing(input);
    const parsed = current ? await notes.parse(path) : null;
    if (parsed && content(parsed.body.trim()) === content(text.trim())) return false;
    const fields = { title: stripMd(path.split('/').pop() ?? 'Briefing'), note_type: 'summary', access_scope: 'user_private', tags: [BRIEFING_TAG] } as const;
    await notes.writeNote(
      parsed
        ? { path, mode: 'update', content: text, fields: {}, actor: null, expectedVersion: parsed.contentHash }
        : { path, mode: 'create', content: text, fields: { ...fields, tags: [...fields.tags] }, actor: null },
      BRIEFING_RULE,
    );
    return true;
  }
}
