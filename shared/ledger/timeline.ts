/**
 * The timeline (docs/ledger.md → Timeline): what happened to the ledger, by ISO week, newest first — entries
 * recorded, decisions retired, claims refuted, entries buried in the graveyard (with the anchor of their
 * entry), conflicts opened and resolved. The last TIMELINE_DETAIL_WEEKS weeks are listed event by event; older
 * weeks are compacted into one line of counts each. Pure: it renders what it is handed, so whoever gathers the
 * events decides what the reader may see (session/timeline-room.ts). Bounded: a week lists at most
 * TIMELINE_WEEK_LINES lines and at most TIMELINE_HORIZON_WEEKS weeks are covered.
 */
import type { LedgerKind } from '../model/ledger';

/** Where the person's timeline note is kept unless learning.json's `timeline.path` says otherwise. */
export const TIMELINE_NOTE_PATH = 'Lithos/Timeline.md';
/** The tag of the generated timeline note: conflict detection and the like pass it over. */
export const TIMELINE_TAG = 'lithos-timeline';
/** Weeks (the current one included) listed event by event; older weeks get one summary line each. */
export const TIMELINE_DETAIL_WEEKS = 4;
/** How far back the timeline reaches, in weeks. */
export const TIMELINE_HORIZON_WEEKS = 52;
/** The most lines one detailed week lists (the last says how many more there were). */
export const TIMELINE_WEEK_LINES = 20;
/** The cap that follows from the constants above: head, detailed weeks, the compacted section. */
export const TIMELINE_MAX_LINES = 3 + TIMELINE_DETAIL_WEEKS * (2 + TIMELINE_WEEK_LINES) + 2 + (TIMELINE_HORIZON_WEEKS - TIMELINE_DETAIL_WEEKS);

const TITLE_MAX_CHARS = 80;
const DAY = 86_400_000;
const WEEK = 7 * DAY;

export const TIMELINE_EVENT_KINDS = ['recorded', 'retired', 'refuted', 'state', 'buried', 'restored', 'conflict_opened', 'conflict_resolved'] as const;
export type TimelineEventKind = (typeof TIMELINE_EVENT_KINDS)[number];

export interface TimelineNoteRef {
  /** The ledger ID when it has one, else the note id. */
  ref: string;
  title: string;
}

/** One thing that happened, about notes the reader may see. */
export interface TimelineEvent {
  /** When (ms). */
  at: number;
  kind: TimelineEventKind;
  note: TimelineNoteRef;
  /** The ledger kind of `note` (absent for a conflict). */
  ledgerKind?: LedgerKind;
  /** The state it moved to (or was recorded in). */
  state?: string;
  /** What replaced it, when the reader sees it. */
  successor?: string;
  /** The graveyard anchor (`Lithos/Graveyard/Decisions#D001-k3xq`) of a buried entry; '' when buried where the reader cannot follow. */
  graveyard?: string;
  /** A conflict's other note. */
  other?: TimelineNoteRef;
  /** A resolved conflict's resolution. */
  resolution?: string;
}

export interface TimelineInput {
  /** Generation time (ms). */
  now: number;
  events: readonly TimelineEvent[];
}

/** The ISO week (`2026-W48`) of a time, in UTC, and the Monday it starts. */
export function isoWeek(ms: number): { period: string; start: number } {
  const d = new Date(ms);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY;
  const year = new Date(start + 3 * DAY).getUTCFullYear(); // the week's Thursday names its year
  const jan4 = Date.UTC(year, 0, 4);
  const firstMonday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY;
  const week = 1 + Math.round((start - firstMonday) / WEEK);
  return { period: `${year}-W${String(week).padStart(2, '0')}`, start };
}

/** The Monday (ms) an ISO week label starts; null when the label is not one. */
export function weekStart(period: string): number | null {
  const m = /^(\d{4})-W(\d{2})$/.exec(period);
  if (!m) return null;
  const year = Number(m[1]);
  const week = Number(m[2]);
  const jan4 = Date.UTC(year, 0, 4);
  const start = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY + (week - 1) * WEEK;
  return week >= 1 && isoWeek(start).period === period ? start : null;
}

const oneLine = (s: string): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > TITLE_MAX_CHARS ? `${t.slice(0, TITLE_MAX_CHARS - 1)}…` : t;
};
const named = (n: TimelineNoteRef): string => `${n.ref} "${oneLine(n.title).replace(/"/g, "'")}"`;
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** How close a graveyard move follows the write that retired the entry, to be told as one event. */
const BURIAL_WINDOW_MS = 60_000;

/**
 * A retirement and the graveyard move that followed it, told as one line: the retirement gains the graveyard
 * anchor and the move is dropped. A move with no retirement near it (newest first in, newest first out) stays.
 */
export function mergeBurials(events: readonly TimelineEvent[]): TimelineEvent[] {
  const out = events.map((e) => ({ ...e }));
  const dropped = new Set<number>();
  out.forEach((e, i) => {
    if (e.kind !== 'buried') return;
    const j = out.findIndex((r, k) => !dropped.has(k) && (r.kind === 'retired' || r.kind === 'refuted') && r.graveyard === undefined && r.note.ref === e.note.ref && Math.abs(r.at - e.at) <= BURIAL_WINDOW_MS);
    if (j < 0) return;
    out[j].graveyard = e.graveyard ?? '';
    dropped.add(i);
  });
  return out.filter((_, i) => !dropped.has(i));
}

/** One event as a list line. */
export function describe(e: TimelineEvent): string {
  const what = e.ledgerKind ? ` (${e.ledgerKind})` : '';
  const by = e.successor ? ` → ${oneLine(e.successor)}` : '';
  switch (e.kind) {
    case 'recorded':
      return `- ${day(e.at)} ${named(e.note)}${what} recorded${e.state ? ` as ${e.state}` : ''}`;
    case 'retired':
    case 'refuted':
    case 'state':
      return `- ${day(e.at)} ${named(e.note)}${what} ${e.state ?? 'changed'}${by}${e.graveyard ? `, buried: [[${e.graveyard}]]` : e.graveyard === '' ? ', buried' : ''}`;
    case 'buried':
      return `- ${day(e.at)} ${named(e.note)}${what} buried${e.graveyard ? `: [[${e.graveyard}]]` : ''}`;
    case 'restored':
      return `- ${day(e.at)} ${named(e.note)}${what} text restored from the graveyard`;
    case 'conflict_opened':
      return `- ${day(e.at)} conflict opened: ${named(e.note)} ⟷ ${e.other ? named(e.other) : '?'}`;
    case 'conflict_resolved':
      return `- ${day(e.at)} conflict resolved${e.resolution ? ` (${e.resolution})` : ''}: ${named(e.note)} ⟷ ${e.other ? named(e.other) : '?'}`;
  }
}

const LABEL: Record<TimelineEventKind, string> = {
  recorded: 'recorded',
  retired: 'retired',
  refuted: 'refuted',
  state: 'other state changes',
  buried: 'buried',
  restored: 'restored',
  conflict_opened: 'conflicts opened',
  conflict_resolved: 'conflicts resolved',
};

/** Counts by kind, in a fixed order: `3 recorded, 1 refuted, 2 buried`. */
export function summarize(events: readonly TimelineEvent[]): string {
  const counts = new Map<TimelineEventKind, number>();
  for (const e of events) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  return TIMELINE_EVENT_KINDS.filter((k) => counts.has(k))
    .map((k) => `${counts.get(k)} ${LABEL[k]}`)
    .join(', ');
}

export interface TimelinePeriod {
  period: string;
  /** ISO dates of the week's Monday and Sunday. */
  from: string;
  to: string;
  events: TimelineEvent[];
}

/** The events grouped by ISO week, newest week first, each week's events newest first. */
export function byWeek(events: readonly TimelineEvent[]): TimelinePeriod[] {
  const weeks = new Map<number, TimelinePeriod>();
  for (const e of [...events].sort((a, b) => b.at - a.at)) {
    const w = isoWeek(e.at);
    let p = weeks.get(w.start);
    if (!p) weeks.set(w.start, (p = { period: w.period, from: day(w.start), to: day(w.start + 6 * DAY), events: [] }));
    p.events.push(e);
  }
  return [...weeks.entries()].sort((a, b) => b[0] - a[0]).map(([, p]) => p);
}

/** A detailed week's lines: heading, then its events (at most `max`, the last saying how many more). */
export function weekLines(p: TimelinePeriod, max: number = TIMELINE_WEEK_LINES): string[] {
  const lines = p.events.map(describe);
  const shown = lines.length <= max ? lines : [...lines.slice(0, max - 1), `- … and ${lines.length - (max - 1)} more (${summarize(p.events.slice(max - 1))})`];
  return ['', `## ${p.period} (${p.from} – ${p.to})`, ...(shown.length > 0 ? shown : ['_Nothing recorded._'])];
}

/** Renders the timeline, never longer than TIMELINE_MAX_LINES lines. */
export function renderTimeline(input: TimelineInput): string {
  const current = isoWeek(input.now).start;
  const detailFrom = current - (TIMELINE_DETAIL_WEEKS - 1) * WEEK;
  const horizon = current - (TIMELINE_HORIZON_WEEKS - 1) * WEEK;
  const events = input.events.filter((e) => e.at >= horizon && e.at < current + WEEK);
  const weeks = byWeek(events);
  const out = [
    '# Timeline',
    '',
    `Generated ${new Date(input.now).toISOString()} from ${events.length} ${events.length === 1 ? 'event' : 'events'} you can see, newest first; the last ${TIMELINE_DETAIL_WEEKS} weeks in full, older weeks counted. \`lithos_read\` an ID for the whole entry.`,
  ];
  for (let k = 0; k < TIMELINE_DETAIL_WEEKS; k++) {
    const start = current - k * WEEK;
    const w = isoWeek(start);
    const found = weeks.find((p) => p.period === w.period);
    out.push(...weekLines(found ?? { period: w.period, from: day(start), to: day(start + 6 * DAY), events: [] }));
  }
  const older = weeks.filter((p) => isoWeek(Date.parse(p.from)).start < detailFrom);
  out.push('', '## Earlier, compacted');
  out.push(...(older.length > 0 ? older.map((p) => `- ${p.period} (${p.from} – ${p.to}): ${summarize(p.events)}`) : ['_Nothing earlier._']));
  return `${out.join('\n')}\n`;
}
