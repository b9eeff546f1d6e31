/**
 * The L0 briefing (docs/ledger.md → Briefing): a short Markdown page an agent reads at session start and the
 * person finds in the vault — the decisions in force by target, what is dead or refuted (not to be repeated),
 * what is contested or unverified, open conflicts and, when given, drift alerts. Pure: it renders what it is
 * handed, so whoever gathers the input decides what the reader may see (session/briefing-room.ts); nothing
 * here can leak a note that was not passed in. The page never exceeds `maxLines`: each list is cut with
 * "… and N more" so the cap holds however large the ledger grows.
 */
import type { LedgerKind, Phase, Vitality } from '../model/ledger';

/** The tag of the generated briefing note: conflict detection passes it over (it restates other notes' claims). */
export const BRIEFING_TAG = 'lithos-briefing';

/** Where the person's briefing note is kept unless learning.json's `briefing.path` says otherwise. */
export const BRIEFING_NOTE_PATH = 'Lithos/Briefing.md';

/** The hard cap on a briefing's lines (the issue: ≈ 50–100 lines). */
export const BRIEFING_MAX_LINES = 100;
/** A title is cut to this many characters, so one entry stays one short line. */
const TITLE_MAX_CHARS = 80;

/** One ledger entry as the briefing shows it. */
export interface BriefingEntry {
  /** The ledger ID when it has one, else the note id. */
  ref: string;
  title: string;
  kind: LedgerKind;
  /** The kind's state, lower case. */
  state: string;
  target: string | null;
  phase: Phase;
  vitality: Vitality;
  /** What replaced it, as written (`superseded_by`), when anything. */
  supersededBy: string | null;
  /** Whether the note itself is still active (a decision archived or superseded as a note no longer holds). */
  noteActive: boolean;
  /** When it was last written (ms), for ordering only. */
  at: number;
}

export interface BriefingConflict {
  a: { ref: string; title: string };
  b: { ref: string; title: string };
  state: string;
  /** When it was opened (ms): oldest first, as the oldest waits longest. */
  at: number;
}

/**
 * A drift alert (issue 21 item 3, built elsewhere): an optional input. The gatherer passes only alerts about
 * notes the reader sees; the briefing lists them most urgent first.
 */
export interface BriefingDriftAlert {
  ref: string;
  title: string;
  /** Why it is flagged, short (`contested 20 days (threshold 14)`). */
  reason: string;
  /** Higher is more urgent. */
  urgency: number;
}

export interface BriefingInput {
  /** ISO time of generation. */
  at: string;
  entries: readonly BriefingEntry[];
  conflicts: readonly BriefingConflict[];
  /** Drift alerts, when a drift triage is available; absent: the section is left out. */
  drift?: readonly BriefingDriftAlert[];
}

const PHASE_RANK: Record<Phase, number> = { canonical: 0, emergent: 1, pattern: 2 };

/** States that mean "do not repeat this": a retired decision, a refuted claim, a replaced workflow, a dead construct. */
const RETIRED: Record<LedgerKind, readonly string[]> = {
  decision: ['superseded', 'deprecated', 'aborted'],
  claim: ['refuted'],
  workflow: ['superseded', 'merged'],
  construct: ['dead', 'evolved'],
};

const oneLine = (s: string): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > TITLE_MAX_CHARS ? `${t.slice(0, TITLE_MAX_CHARS - 1)}…` : t;
};
const named = (e: { ref: string; title: string }): string => `${e.ref} "${oneLine(e.title).replace(/"/g, "'")}"`;

function isRetired(e: BriefingEntry): boolean {
  return RETIRED[e.kind].includes(e.state) || e.supersededBy !== null;
}

function activeDecisions(entries: readonly BriefingEntry[]): string[] {
  return entries
    .filter((e) => e.kind === 'decision' && e.state === 'active' && e.noteActive && e.target !== null)
    .sort((x, y) => PHASE_RANK[x.phase] - PHASE_RANK[y.phase] || cmp(x.target!, y.target!) || cmp(x.ref, y.ref))
    .map((e) => `- \`${oneLine(e.target!)}\`: ${named(e)} — ${e.phase}${e.vitality === 'active' ? '' : `, ${e.vitality}`}`);
}

function retired(entries: readonly BriefingEntry[]): string[] {
  return entries
    .filter(isRetired)
    .sort((x, y) => y.at - x.at || cmp(x.ref, y.ref))
    .map((e) => {
      const state = e.state === 'active' || e.state === 'current' ? 'replaced' : e.state;
      const by = e.supersededBy !== null ? ` → ${oneLine(e.supersededBy)}` : '';
      const what = e.kind === 'decision' && e.target !== null ? ` (${e.kind} on \`${oneLine(e.target)}\`)` : ` (${e.kind})`;
      return `- ${named(e)} is ${state}${what}${by}`;
    });
}

function open(entries: readonly BriefingEntry[]): string[] {
  const rank = (s: string): number => (s === 'contested' ? 0 : 1);
  return entries
    .filter((e) => e.kind === 'claim' && (e.state === 'contested' || e.state === 'unverified'))
    .sort((x, y) => rank(x.state) - rank(y.state) || y.at - x.at || cmp(x.ref, y.ref))
    .map((e) => `- ${named(e)} is ${e.state}`);
}

function conflicts(list: readonly BriefingConflict[]): string[] {
  return [...list].sort((x, y) => x.at - y.at).map((c) => `- ${named(c.a)} ⟷ ${named(c.b)} (${c.state})`);
}

function drift(list: readonly BriefingDriftAlert[]): string[] {
  return [...list].sort((x, y) => y.urgency - x.urgency || cmp(x.ref, y.ref)).map((d) => `- ${named(d)}: ${oneLine(d.reason)}`);
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Section {
  heading: string;
  lines: string[];
}

/**
 * Lines each section may use, sharing `budget` fairly (water-filling): a section that needs less than an
 * equal share gives the rest to the others. A section always gets at least one line.
 */
function allot(wants: readonly number[], budget: number): number[] {
  const got = wants.map(() => 0);
  const order = wants.map((w, i) => [Math.max(1, w), i] as const).sort((a, b) => a[0] - b[0]);
  let left = budget;
  order.forEach(([want, i], k) => {
    const share = Math.max(1, Math.floor(left / (order.length - k)));
    got[i] = Math.min(want, share);
    left -= got[i];
  });
  return got;
}

/** A section's lines within `room` lines: when they do not fit, the last line says how many were left out. */
function fit(lines: readonly string[], room: number): string[] {
  if (lines.length === 0) return ['_None._'];
  if (lines.length <= room) return [...lines];
  const shown = Math.max(0, room - 1);
  return [...lines.slice(0, shown), `- … and ${lines.length - shown} more`];
}

/** Renders the briefing, never longer than `maxLines` lines (at least 30, so every heading fits). */
export function renderBriefing(input: BriefingInput, maxLines: number = BRIEFING_MAX_LINES): string {
  const cap = Math.max(30, Math.floor(maxLines));
  const kinds = new Set(input.entries.map((e) => e.kind)).size;
  const head = [
    '# Briefing',
    '',
    `Generated ${input.at} from ${input.entries.length} ledger ${input.entries.length === 1 ? 'entry' : 'entries'} of ${kinds} ${kinds === 1 ? 'kind' : 'kinds'} you can read. Read it before you start; \`lithos_read\` an ID for the whole entry.`,
  ];
  const sections: Section[] = [
    { heading: '## Decisions in force, by target', lines: activeDecisions(input.entries) },
    { heading: "## Dead, refuted or replaced — don't repeat", lines: retired(input.entries) },
    { heading: '## Contested or unverified claims', lines: open(input.entries) },
    { heading: '## Open conflicts', lines: conflicts(input.conflicts) },
  ];
  // Drift alerts: optional input (drift triage, issue 21 item 3); the section shows only when they are given.
  if (input.drift !== undefined) sections.push({ heading: '## Drift alerts', lines: drift(input.drift) });
  // Each section costs a blank line and its heading besides its items.
  const budget = cap - head.length - sections.length * 2;
  const room = allot(sections.map((s) => s.lines.length), budget);
  const out = [...head];
  sections.forEach((s, i) => out.push('', s.heading, ...fit(s.lines, room[i])));
  return `${out.join('\n')}\n`;
}
