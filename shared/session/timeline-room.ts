/**
 * The timeline as a session's viewer may read it (ledger/timeline.ts renders it), read from the audit trail: an
 * event goes in only when the viewer sees every note it names now — a conflict both its ends, a superseded
 * decision its own note (its successor is named only when seen too), a buried entry its stub (its graveyard
 * anchor only when the graveyard note is seen). An event about a note deleted since is left out for everyone,
 * as whether the reader could have read it is no longer known. The person's copy in the vault is generated
 * from a person's session (session/timeline-note.ts).
 */
import type { AuditEntry } from '../governance/audit';
import { LithosError } from '../errors';
import {
  TIMELINE_DETAIL_WEEKS,
  TIMELINE_HORIZON_WEEKS,
  byWeek,
  isoWeek,
  mergeBurials,
  renderTimeline,
  weekLines,
  weekStart,
  type TimelineEvent,
  type TimelineEventKind,
  type TimelineNoteRef,
  type TimelinePeriod,
} from '../ledger/timeline';
import { isLedgerKind, type LedgerKind } from '../model/ledger';
import { stripMd } from '../model/paths';
import type { LiveNote } from '../vault/note-indexer';
import type { NotesRoom } from './notes-room';
import type { Services } from './services';

/** The audit actions the timeline is read from. */
export const TIMELINE_ACTIONS = ['note.write', 'ledger.state', 'ledger.intent', 'graveyard.move', 'conflict.create', 'conflict.resolve'] as const;
/** The most audit entries one timeline reads (a year of a busy vault): older ones are past its horizon anyway. */
const MAX_ENTRIES = 50_000;
const WEEK = 7 * 86_400_000;

/** States that retire an entry (the graveyard's moves); a claim's `refuted` has its own kind. */
const RETIRED: Record<LedgerKind, readonly string[]> = {
  decision: ['superseded', 'deprecated', 'aborted'],
  claim: [],
  workflow: ['superseded', 'merged'],
  construct: ['dead', 'evolved'],
};

const ref = (n: LiveNote): TimelineNoteRef => ({ ref: n.cached.meta.ledger?.ledger_id ?? n.nodeId, title: n.cached.meta.title });
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export interface TimelinePage {
  periods: TimelinePeriod[];
  /** The Markdown of these periods. */
  text: string;
  /** The week to pass as `before` for older weeks; null when nothing older is within the horizon. */
  next_cursor: string | null;
}

export class TimelineRoom {
  constructor(
    private readonly services: Services,
    private readonly notes: NotesRoom,
  ) {}

  /** The whole timeline's Markdown for this viewer (recent weeks detailed, older compacted). */
  async text(): Promise<string> {
    return (await this.overview()).text;
  }

  /** The whole timeline, and the cursor of the weeks before its detailed ones (null: nothing older). */
  async overview(): Promise<{ text: string; next_cursor: string | null }> {
    const now = this.services.clock.now();
    const events = await this.events();
    const oldestDetailed = isoWeek(now).start - (TIMELINE_DETAIL_WEEKS - 1) * WEEK;
    return { text: renderTimeline({ now, events }), next_cursor: events.some((e) => e.at < oldestDetailed) ? isoWeek(oldestDetailed).period : null };
  }

  /** `weeks` weeks in full, newest first, starting with the week before `before` (an ISO week) or the current one. */
  async page(opts: { before?: string; weeks?: number } = {}): Promise<TimelinePage> {
    const now = this.services.clock.now();
    const current = isoWeek(now).start;
    let end = current + WEEK;
    if (opts.before !== undefined) {
      const start = weekStart(opts.before);
      if (start === null) throw new LithosError('invalid_argument', `"${opts.before}" is not an ISO week; pass one like "${isoWeek(now).period}" (next_cursor gives it).`, { before: opts.before });
      end = start;
    }
    const count = Math.max(1, Math.min(TIMELINE_DETAIL_WEEKS, Math.floor(opts.weeks ?? TIMELINE_DETAIL_WEEKS)));
    const from = Math.max(end - count * WEEK, current - (TIMELINE_HORIZON_WEEKS - 1) * WEEK);
    const all = await this.events();
    const periods = byWeek(all.filter((e) => e.at >= from && e.at < end));
    const older = all.some((e) => e.at < from && e.at >= current - (TIMELINE_HORIZON_WEEKS - 1) * WEEK);
    const text = periods.length > 0 ? `${periods.flatMap((p) => weekLines(p)).slice(1).join('\n')}\n` : '_Nothing recorded in these weeks._\n';
    return { periods, text, next_cursor: older ? isoWeek(from).period : null };
  }

  /** The events this viewer may see, within the horizon, newest first. */
  async events(): Promise<TimelineEvent[]> {
    const now = this.services.clock.now();
    const since = new Date(isoWeek(now).start - (TIMELINE_HORIZON_WEEKS - 1) * WEEK).toISOString();
    const entries = await this.services.governance.audit.recent({ actions: TIMELINE_ACTIONS, since, limit: MAX_ENTRIES });
    return mergeBurials(entries.flatMap((e) => this.of(e)));
  }

  private of(e: AuditEntry): TimelineEvent[] {
    const at = Date.parse(e.ts);
    if (!Number.isFinite(at)) return [];
    const d = e.data;
    const note = e.target ? this.notes.byId(e.target) : null;
    const kindOf = (n: LiveNote): LedgerKind | undefined => (isLedgerKind(n.cached.meta.note_type) ? n.cached.meta.note_type : undefined);
    switch (e.action) {
      case 'note.write': {
        const lk = note ? kindOf(note) : undefined;
        if (d.created !== true || !note || !lk) return [];
        return [{ at, kind: 'recorded', note: ref(note), ledgerKind: lk }];
      }
      case 'ledger.state': {
        const lk = str(d.kind);
        const to = str(d.to);
        if (!note || !lk || !isLedgerKind(lk) || !to) return [];
        const kind: TimelineEventKind = lk === 'claim' && to === 'refuted' ? 'refuted' : RETIRED[lk].includes(to) ? 'retired' : 'state';
        return [{ at, kind, note: ref(note), ledgerKind: lk, state: to }];
      }
      case 'ledger.intent': {
        if (!Array.isArray(d.replaced)) return [];
        const successor = note ? ref(note).ref : undefined;
        const out: TimelineEvent[] = [];
        for (const r of d.replaced as Record<string, unknown>[]) {
          const old = typeof r.id === 'string' ? this.notes.byId(r.id) : null;
          const state = str(r.state);
          if (!old || !state) continue; // only a replaced decision changes state; another note's replacement is a write
          out.push({ at, kind: 'retired', note: ref(old), ledgerKind: 'decision', state, ...(successor ? { successor } : {}) });
        }
        return out;
      }
      case 'graveyard.move': {
        if (!note) return [];
        const lk = str(d.kind);
        const ledgerKind = lk && isLedgerKind(lk) ? lk : undefined;
        if (d.restored === true) return [{ at, kind: 'restored', note: ref(note), ...(ledgerKind ? { ledgerKind } : {}) }];
        const g = str(d.graveyard);
        const section = str(d.section);
        const graveyard = g && section && this.notes.atPath(g) ? `${stripMd(g)}#${section}` : undefined;
        return [{ at, kind: 'buried', note: ref(note), ...(ledgerKind ? { ledgerKind } : {}), ...(graveyard ? { graveyard } : {}) }];
      }
      case 'conflict.create':
      case 'conflict.resolve': {
        const a = typeof d.a === 'string' ? this.notes.byId(d.a) : null;
        const b = typeof d.b === 'string' ? this.notes.byId(d.b) : null;
        if (!a || !b) return [];
        const resolution = str(d.resolution);
        return [{ at, kind: e.action === 'conflict.create' ? 'conflict_opened' : 'conflict_resolved', note: ref(a), other: ref(b), ...(resolution ? { resolution } : {}) }];
      }
      default:
        return [];
    }
  }
}
