/**
 * Ledger IDs for notes a person writes outside the engine (docs/ledger.md#stable-ids): a note whose
 * note_type is a ledger kind and that has no `ledger_id` gets one, written into its frontmatter through the
 * host's processFrontMatter (the body is never rewritten), once the note has been quiet for a moment, and
 * after each full scan. Every ID the index sees also raises the allocator's high-water marks, so an ID seen
 * once is never handed out again, even after its note is deleted.
 */
import type { Logger, Timers } from '../ports';
import { isLedgerKind, LEDGER_FIELDS } from '../model/ledger';
import { ledgerIdOf } from '../model/ledger-id';
import type { LedgerIds } from './ledger-ids';
import type { LiveNote } from './note-indexer';

/** A person typing `note_type: claim` pauses before the note gets its ID: no ID for a type they are still changing. */
export const LEDGER_ASSIGN_DEBOUNCE_MS = 2000;

export interface LedgerAssignDeps {
  live: { readonly byPath: ReadonlyMap<string, LiveNote> };
  ledger: LedgerIds;
  updateFrontmatter(path: string, fn: (fm: Record<string, unknown>) => void): Promise<void>;
  timers: Timers;
  logger: Logger;
  /** False where this process must not write notes (read-only commands, doctor): IDs are only observed. */
  enabled: boolean;
  debounceMs?: number;
}

/** Whether the note is a ledger entry without an ID of its own. */
export function needsLedgerId(n: LiveNote | undefined): n is LiveNote {
  return n !== undefined && isLedgerKind(n.cached.meta.note_type) && (n.cached.ledgerId ?? null) === null;
}

export class LedgerAssigner {
  private readonly pending = new Set<string>();
  private timer: unknown = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly d: LedgerAssignDeps) {}

  /** A note (re)indexed by an event or the engine's own write. */
  noteChanged(path: string): void {
    const n = this.d.live.byPath.get(path);
    if (!n) return;
    if (n.cached.ledgerId) this.d.ledger.observe([n]).catch((err: unknown) => this.d.logger.warn('could not record a ledger ID seen', { error: String(err) }));
    if (!this.d.enabled || this.stopped || !needsLedgerId(n)) return;
    this.pending.add(path);
    if (this.timer !== null) this.d.timers.clearTimeout(this.timer);
    this.timer = this.d.timers.setTimeout(() => {
      this.timer = null;
      void this.runPending();
    }, this.d.debounceMs ?? LEDGER_ASSIGN_DEBOUNCE_MS);
  }

  /** After a full scan: records every ID seen and gives an ID to every ledger note without one. Returns how many. */
  async assignMissing(): Promise<number> {
    await this.d.ledger.observe(this.d.live.byPath.values()).catch((err: unknown) => this.d.logger.warn('could not record the ledger IDs seen', { error: String(err) }));
    if (!this.d.enabled || this.stopped) return 0;
    const missing = [...this.d.live.byPath.values()].filter(needsLedgerId);
    for (const note of missing) this.pending.add(note.path);
    await this.runPending();
    return missing.filter((n) => !needsLedgerId(this.d.live.byPath.get(n.path))).length;
  }

  /** Runs the debounced assignments now and waits for them (tests, close). */
  async settle(): Promise<void> {
    if (this.timer !== null) {
      this.d.timers.clearTimeout(this.timer);
      this.timer = null;
      await this.runPending();
    }
    await this.running;
  }

  /** No more assignments from now on (the engine closes); a note left without an ID gets one at the next scan. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.d.timers.clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }

  private runPending(): Promise<void> {
    const run = this.running.then(async () => {
      for (const path of [...this.pending]) {
        this.pending.delete(path);
        if (this.stopped) return;
        try {
          await this.assign(path);
        } catch (err) {
          this.d.logger.warn(`could not give "${path}" its ledger ID`, { error: String(err) });
        }
      }
    });
    this.running = run.catch(() => undefined);
    return run;
  }

  private async assign(path: string): Promise<void> {
    const n = this.d.live.byPath.get(path);
    if (!needsLedgerId(n) || !isLedgerKind(n.cached.meta.note_type)) return;
    const id = await this.d.ledger.allocate(n.cached.meta.note_type, path, { kind: 'system', id: null });
    // Only where the note still has none: an ID written meanwhile (by the person, another device) stays, and this one is a gap.
    await this.d.updateFrontmatter(path, (fm) => {
      if (ledgerIdOf(fm) === null) fm[LEDGER_FIELDS.ledgerId] = id;
    });
  }
}
