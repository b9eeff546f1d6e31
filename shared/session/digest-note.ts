/**
 * A page the engine keeps for the person from the memory itself (the briefing, the timeline): kept at the path
 * learning.json names (null: none), regenerated a while after notes change, written by the engine as a rule
 * (audited, never the person's edit) and readable by the person only (`user_private`: it names notes agents may
 * not see; agents call their own tool instead). A change of the page itself starts nothing, and a page whose text
 * is unchanged but for its generation time is not written again, so it never feeds itself. Where there is nothing
 * to say, no page is created.
 */
import type { AuditActor } from '../governance/audit';
import type { Logger, Timers } from '../ports';
import { stripMd } from '../model/paths';
import { MemorySession } from './memory-session';
import type { Services } from './services';

/** Quiet after the last change before a page is regenerated: a burst of writes makes one regeneration. */
export const DIGEST_DEBOUNCE_MS = 5000;

export interface DigestNoteDeps {
  services: Services;
  /** The page's path now (learning.json), null when none is kept. */
  path: () => string | null;
  timers: Timers;
  logger: Logger;
  /** False where this process must not write notes (read-only commands): nothing is scheduled. */
  enabled: boolean;
  debounceMs?: number;
}

export interface DigestKind {
  /** What the page is, in log lines and as its default title ("briefing" → "Briefing"). */
  name: string;
  /** Who writes it, in the audit trail. */
  rule: AuditActor;
  /** The tag that marks it as the engine's page (ledger/generated-pages.ts leaves it out of retrieval). */
  tag: string;
  /** The page's text as the person's session reads the memory, and whether it has nothing to say. */
  render(session: MemorySession, services: Services): Promise<{ text: string; empty: boolean }>;
}

/** The text without its generation time, to tell a changed page from a regenerated one. */
const content = (text: string): string => text.replace(/^Generated \S+ /m, 'Generated ');

export class DigestNote {
  private timer: unknown = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly d: DigestNoteDeps,
    private readonly kind: DigestKind,
  ) {}

  /** A note was (re)indexed: the page is regenerated once things are quiet, unless it was the page itself. */
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
    }, this.d.debounceMs ?? DIGEST_DEBOUNCE_MS);
  }

  /** Runs a pending regeneration now and waits for it (tests, the CLI, closing). */
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
    this.running = run.catch((err: unknown) => this.d.logger.warn(`could not regenerate the ${this.kind.name} note`, { error: String(err) }));
    return this.running;
  }

  /** Writes the page at the configured path when it differs from what the note holds; true when written. */
  async regenerate(): Promise<boolean> {
    const path = this.d.path();
    if (path === null) return false;
    const notes = this.d.services.notes;
    const session = new MemorySession({ services: this.d.services, logger: this.d.logger, pendingEvents: () => 0 }, { kind: 'human', agent_id: null });
    const current = notes.note(path);
    const { text: page, empty } = await this.kind.render(session, this.d.services);
    // Nothing to say: no page is created (one that exists is kept up to date).
    if (empty && !current) return false;
    const parsed = current ? await notes.parse(path) : null;
    if (parsed && content(parsed.body.trim()) === content(page.trim())) return false;
    const title = stripMd(path.split('/').pop() ?? this.kind.name.replace(/^./, (c) => c.toUpperCase()));
    await notes.writeNote(
      parsed
        ? { path, mode: 'update', content: page, fields: {}, actor: null, expectedVersion: parsed.contentHash }
        : { path, mode: 'create', content: page, fields: { title, note_type: 'summary', access_scope: 'user_private', tags: [this.kind.tag] }, actor: null },
      this.kind.rule,
    );
    return true;
  }
}
