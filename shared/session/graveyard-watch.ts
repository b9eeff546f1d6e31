/**
 * The graveyard's move for a state a person changes by hand (docs/ledger.md → Graveyard): an entry retired in
 * Obsidian (its frontmatter `state` edited) is buried, and a stub set back to a living state gets its text back,
 * as after a write through Lithos (graveyard-moves.ts) — but only once the note has been quiet for
 * GRAVEYARD_QUIET_MS, so the engine never rewrites a note while its person is still typing in it.
 *
 * Each edit seen by sync restarts the note's wait; the state is compared when the wait ends, from the state the
 * note had before the first edit of the burst to the state it has then (a state typed letter by letter, or set and
 * set back, moves nothing). The change is audited `ledger.state`, and the move `graveyard.move`, with the actor
 * `outside-the-tools` (who edited is not known). The writes are the engine's text edits (Obsidian's Vault.process),
 * and the stub replaces the text only while it is still the text that was buried, so a person's bytes are never
 * lost: they are in the graveyard before the note is touched, or the note is left as it is.
 */
import type { AuditActor } from '../governance/audit';
import { isGraveyardPath } from '../ledger/graveyard';
import type { Logger, Timers } from '../ports';
import type { NoteMeta } from '../model/types';
import { buryAfterWrite } from './graveyard-moves';
import { auditStateChange } from './ledger-kind-writes';
import type { Services } from './services';

/** How long a note must go without an edit before a state changed by hand moves its text (Obsidian saves every ~2 s). */
export const GRAVEYARD_QUIET_MS = 60_000;

/** Who changed a state by hand, in the audit trail: as for every edit seen by sync (external-edits.ts). */
export const OUTSIDE_THE_TOOLS: AuditActor = { kind: 'system', id: 'outside-the-tools' };

export interface GraveyardWatchDeps {
  services: Services;
  timers: Timers;
  logger: Logger;
  /** False where this process must not write notes (read-only commands): nothing is watched. */
  enabled: boolean;
  quietMs?: number;
}

interface Waiting {
  /** The note's metadata before the first edit of this burst. */
  before: NoteMeta;
  timer: unknown;
}

export class GraveyardWatch {
  private readonly waiting = new Map<string, Waiting>();
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly d: GraveyardWatchDeps) {}

  /** A note changed outside the tools (sync's hook); `before`: its metadata as indexed before the change. */
  noteChanged(path: string, before: NoteMeta | null): void {
    if (!this.d.enabled || this.stopped || isGraveyardPath(path)) return;
    const earlier = this.waiting.get(path);
    if (earlier) this.d.timers.clearTimeout(earlier.timer);
    // Only a ledger entry can change state; the wait keeps the state from before the burst's first edit.
    const from = earlier?.before ?? (before?.ledger ? before : null);
    if (!from) return;
    this.waiting.set(path, { before: from, timer: this.d.timers.setTimeout(() => void this.queue(path), this.d.quietMs ?? GRAVEYARD_QUIET_MS) });
  }

  /** Ends every wait now and waits for the moves (tests, the CLI, closing). */
  async settle(): Promise<void> {
    for (const [path, w] of [...this.waiting]) {
      this.d.timers.clearTimeout(w.timer);
      void this.queue(path);
    }
    await this.running;
  }

  /** No more moves (the engine closes). */
  stop(): void {
    this.stopped = true;
    for (const w of this.waiting.values()) this.d.timers.clearTimeout(w.timer);
    this.waiting.clear();
  }

  private queue(path: string): Promise<void> {
    const w = this.waiting.get(path);
    this.waiting.delete(path);
    if (!w) return this.running;
    const run = this.running.then(() => (this.stopped ? undefined : this.move(path, w.before)));
    this.running = run.catch((err: unknown) => this.d.logger.warn(`could not move "${path}" to or from the graveyard`, { error: String(err) }));
    return this.running;
  }

  /** The state change since `before`, if any, audited and followed by the graveyard's move. */
  private async move(path: string, before: NoteMeta): Promise<void> {
    const notes = this.d.services.notes;
    await notes.refresh(path); // the file as it is now, not a lagging index
    const now = notes.noteAtPath(path);
    const to = now && now.path === path ? now.cached.meta.ledger : undefined;
    const from = before.ledger;
    if (!to || !from || to.kind !== from.kind || to.state === from.state) return;
    await auditStateChange(this.d.services, OUTSIDE_THE_TOOLS, before, path);
    await buryAfterWrite(this.d.services, OUTSIDE_THE_TOOLS, before, path, []);
  }
}
