/**
 * The person's timeline note (docs/ledger.md → Timeline), kept like the briefing note (session/briefing-note.ts):
 * at the path learning.json's `timeline.path` names (`Lithos/Timeline.md` by default; null: none), regenerated a
 * while after notes change, written by the engine as rule `timeline` (audited, never the person's edit) and
 * readable by the person only (`user_private`): it names notes agents may not see, and agents call
 * lithos_timeline instead. A change of the note itself starts nothing and an unchanged timeline is not written
 * again, so the note never feeds itself. A vault with nothing on its timeline gets no note.
 */
import type { AuditActor } from '../governance/audit';
import type { Logger, Timers } from '../ports';
import { TIMELINE_TAG, renderTimeline } from '../ledger/timeline';
import { stripMd } from '../model/paths';
import { BRIEFING_DEBOUNCE_MS } from './briefing-note';
import { MemorySession } from './memory-session';
import type { Services } from './services';

/** Who writes the timeline note, in the audit trail. */
export const TIMELINE_RULE: AuditActor = { kind: 'rule', id: 'timeline' };

export interface TimelineNoteDeps {
  services: Services;
  /** The note's path now (learning.json), null when none is kept. */
  path: () => string | null;
  timers: Timers;
  logger: Logger;
  /** False where this process must not write notes (read-only commands): nothing is scheduled. */
  enabled: boolean;
  debounceMs?: number;
}

/** The timeline's text without its generation time, to tell a changed timeline from a regenerated one. */
const content = (text: string): string => text.replace(/^Generated \S+ /m, 'Generated ');

export class TimelineNote {
  private timer: unknown = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly d: TimelineNoteDeps) {}

  /** A note was (re)indexed: the timeline is regenerated once things are quiet, unless it was the timeline itself. */
  noteChanged(path: string): void {
    if (path !== this.d.path()) this.schedule();
  }

  /** Regenerates once things are quiet. */
  schedule(): void {
    if (!this.d.enabled || this.stopped) return;
    if (this.timer !== null) this.d.timers.clearTimeout(this.timer);
    this.timer = this.d.timers.setTimeout(() => {
      this.timer = null;
      void this.queue();
    }, this.d.debounceMs ?? BRIEFING_DEBOUNCE_MS);
  }

  /** Runs a pending regeneration now and waits for it (tests, closing). */
  async settle(): Promise<void> {
    if (this.timer !== null) {
      this.d.timers.clearTimeout(this.timer);
      this.timer = null;
      await this.queue();
    }
    await this.running;
  }

  /** No more regenerations (the engine closes). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.d.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private queue(): Promise<void> {
    const run = this.running.then(async () => {
      if (!this.stopped) await this.regenerate();
    });
    this.running = run.catch((err: unknown) => this.d.logger.warn('could not regenerate the timeline note', { error: String(err) }));
    return this.running;
  }

  /** Writes the person's timeline at the configured path when it differs from what the note holds; true when written. */
  async regenerate(): Promise<boolean> {
    const path = this.d.path();
    if (path === null) return false;
    const notes = this.d.services.notes;
    const session = new MemorySession({ services: this.d.services, logger: this.d.logger, pendingEvents: () => 0 }, { kind: 'human', agent_id: null });
    const events = await session.timeline.events();
    const current = notes.note(path);
    if (!current && events.length === 0) return false;
    const text = renderTimeline({ now: this.d.services.clock.now(), events });
    const parsed = current ? await notes.parse(path) : null;
    if (parsed && content(parsed.body.trim()) === content(text.trim())) return false;
    const fields = { title: stripMd(path.split('/').pop() ?? 'Timeline'), note_type: 'summary', access_scope: 'user_private', tags: [TIMELINE_TAG] } as const;
    await notes.writeNote(
      parsed
        ? { path, mode: 'update', content: text, fields: {}, actor: null, expectedVersion: parsed.contentHash }
        : { path, mode: 'create', content: text, fields: { ...fields, tags: [...fields.tags] }, actor: null },
      TIMELINE_RULE,
    );
    return true;
  }
}
