/**
 * The engine's one writer of episodic events (model/events.ts). `record` writes at once and resolves when the
 * event is durable (an agent's lithos_event_record, the git indexer). `enqueue` is for the dispatcher's record
 * of every tool call: it must not slow a call down, so calls wait in memory and are written together, one
 * journal append per EVENTS.flush_ms or EVENTS.flush_at events (a crash loses at most that window of tool
 * calls, never an acknowledged event). Who may read an event is the session's business (session/events-room.ts).
 */
import { newId } from '../model/ids';
import { EVENT_LIMITS, type EventActorKind, type EventKind } from '../model/events';
import type { Clock, Logger, Timers } from '../ports';
import { checkEvent } from '../stores/memory-events';
import type { EventRow, MemoryStore } from '../stores/memory-store';
import { EVENTS } from './constants';

/** An event as its recorder describes it; id, time and status are the log's. */
export interface EventInput {
  kind: EventKind;
  actor: string;
  actor_kind: EventActorKind;
  access_scope: string;
  namespace: string;
  summary: string;
  data?: unknown;
  /** Node ids. */
  links?: readonly string[];
  /** ms; default now (a commit keeps its own time). */
  at?: number;
  /** A stable id (a commit's hash) so recording it twice keeps one event; default a new one. */
  event_id?: string;
}

export interface EventLogDeps {
  memory: Pick<MemoryStore, 'events'>;
  clock: Clock;
  timers: Timers;
  logger: Logger;
}

export class EventLog {
  private pending: EventRow[] = [];
  private timer: unknown = null;
  private writing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly d: EventLogDeps) {}

  /** Writes one event now; resolves with it once durable. invalid_argument for a malformed one (nothing written). */
  async record(input: EventInput): Promise<EventRow> {
    const row = this.row(input);
    await this.d.memory.events.add([row]);
    return row;
  }

  /**
   * Queues one event for the next batched write. Never throws: a malformed event or a failed write is
   * logged, since the call it records has already happened and must not fail for it.
   */
  enqueue(input: EventInput): void {
    if (this.stopped) return;
    let row: EventRow;
    try {
      row = this.row(input);
      checkEvent(row);
    } catch (err) {
      this.d.logger.warn('event not recorded', { kind: input.kind, error: String(err) });
      return;
    }
    this.pending.push(row);
    if (this.pending.length >= EVENTS.flush_at) void this.flush();
    else if (this.timer === null) {
      this.timer = this.d.timers.setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, EVENTS.flush_ms);
      // A pending write must not keep a short-lived host process (a CLI command) alive on its own.
      (this.timer as { unref?: () => void } | null)?.unref?.();
    }
  }

  /** Events queued and not yet written. */
  get queued(): number {
    return this.pending.length;
  }

  /** Writes what is queued; resolves when it is durable (or its failure logged). */
  flush(): Promise<void> {
    if (this.timer !== null) this.d.timers.clearTimeout(this.timer);
    this.timer = null;
    const rows = this.pending.splice(0);
    if (rows.length > 0) {
      this.writing = this.writing.then(() => this.d.memory.events.add(rows)).catch((err: unknown) => this.d.logger.warn('events not written', { count: rows.length, error: String(err) }));
    }
    return this.writing;
  }

  /** Writes what is queued and takes no more (the engine is closing). */
  async stop(): Promise<void> {
    await this.flush();
    this.stopped = true;
  }

  private row(e: EventInput): EventRow {
    const now = this.d.clock.now();
    return {
      event_id: e.event_id ?? `ev-${newId()}`,
      kind: e.kind,
      at: e.at ?? now,
      actor: e.actor,
      actor_kind: e.actor_kind,
      access_scope: e.access_scope,
      namespace: e.namespace,
      summary: e.summary.length > EVENT_LIMITS.summary_chars ? `${e.summary.slice(0, EVENT_LIMITS.summary_chars - 1)}…` : e.summary,
      data: e.data ?? null,
      links: [...new Set(e.links ?? [])],
      status: 'active',
      status_at: now,
    };
  }
}
