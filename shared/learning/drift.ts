/**
 * Drift triage (docs/ledger.md, "Drift triage"; Engram's thresholds): which parts of the knowledge ledger
 * have gone stale and what to do about each. Pure: the session's drift room (session/drift-room.ts) gathers
 * the facts of the notes its viewer may see; this file turns them into alerts ranked by urgency. Ages run
 * from when the state began, as far as the memory knows it (see DriftEntry), to the engine's clock.
 */
import type { LedgerKind, Phase, Vitality } from '../model/ledger';
import { VITALITY_DAYS } from '../model/phases';
import { DAY_MS, type DRIFT } from './constants';

export const DRIFT_KINDS = ['unresolved_ref', 'contested_claim', 'unreviewed_conflict', 'dormant_canonical', 'unverified_claim', 'orphaned_entry'] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** The thresholds in days (learning.json's `drift` group, tunables.ts). */
export type DriftThresholds = { -readonly [K in keyof typeof DRIFT]: number };

/** A note as an alert names it. */
export interface DriftNote {
  id: string;
  path: string;
  title: string;
  ledger_id: string | null;
}

/** One ledger entry's facts. */
export interface DriftEntry {
  note: DriftNote;
  kind: LedgerKind;
  /** The kind's state, lower case. */
  state: string;
  /** Superseded, refuted, dead, … (model/phases.ts isRetired): such an entry is history, never drift. */
  retired: boolean;
  /** When the note was last written (frontmatter updated_at, else created_at, else the file's time): when its state began, as far as the note says. */
  written_at: number;
  /** Its last use, or its last write when later (model/phases.ts lastActivity). */
  last_active: number;
  /** Links into it plus resolved links out of it (wiki links, ID references, evidence, superseded_by). */
  links: number;
  phase: Phase;
  vitality: Vitality;
}

export interface DriftConflict {
  edge_id: string;
  a: DriftNote;
  b: DriftNote;
  /** When it was opened (its edge's created_at). */
  created_at: number;
}

/** A ledger ID reference that names no entry (vault/ledger-report.ts `unresolved_ledger_ref`), or several. */
export interface DriftRef {
  note: DriftNote;
  ref: string;
  /** The frontmatter property holding it; absent for one in the body. */
  field?: string;
  ambiguous: boolean;
  /** When the referring note was last written. */
  written_at: number;
}

export interface DriftInput {
  entries: readonly DriftEntry[];
  conflicts: readonly DriftConflict[];
  refs: readonly DriftRef[];
}

export interface DriftAlert {
  kind: DriftKind;
  note: DriftNote;
  /** The conflict's other note. */
  other?: DriftNote;
  edge_id?: string;
  ref?: string;
  field?: string;
  /** Whole days since `since`. */
  age_days: number;
  /** ISO time the age runs from. */
  since: string;
  /** The threshold crossed: its learning.json key (`drift.contested_days`) or `vitality.dormant_days`, and its days. */
  threshold: { key: string; days: number };
  /** Higher first: the kind's weight times how far past its threshold (1 to 4 times). */
  urgency: number;
  todo: string;
}

/** How much each kind matters: a wrong reference or a fight nobody settles misleads now; an orphan only costs space. */
const WEIGHT: Record<DriftKind, number> = {
  unresolved_ref: 3,
  contested_claim: 3,
  unreviewed_conflict: 2,
  dormant_canonical: 2,
  unverified_claim: 1,
  orphaned_entry: 1,
};

/** Past four times its threshold an alert ranks no higher: a year-old orphan does not bury a fresh contest. */
const OVERDUE_CAP = 4;

const label = (n: DriftNote): string => n.ledger_id ?? n.title;

export function driftAlerts(input: DriftInput, t: DriftThresholds, now: number): DriftAlert[] {
  const out: DriftAlert[] = [];
  const add = (kind: DriftKind, note: DriftNote, since: number, key: string, days: number, todo: string, extra: Partial<DriftAlert> = {}): void => {
    const age = Math.max(0, now - since);
    if (days > 0 && age <= days * DAY_MS) return;
    const overdue = days > 0 ? Math.min(OVERDUE_CAP, age / (days * DAY_MS)) : 1;
    out.push({ kind, note, ...extra, age_days: Math.floor(age / DAY_MS), since: new Date(since).toISOString(), threshold: { key, days }, urgency: Math.round(WEIGHT[kind] * overdue * 100) / 100, todo });
  };
  for (const e of input.entries) {
    if (e.retired) continue;
    if (e.kind === 'claim' && e.state === 'contested') {
      add('contested_claim', e.note, e.written_at, 'drift.contested_days', t.contested_days, `Settle ${label(e.note)}: add the deciding evidence and set state believed or refuted.`);
    } else if (e.kind === 'claim' && e.state === 'unverified') {
      add('unverified_claim', e.note, e.written_at, 'drift.unverified_days', t.unverified_days, `Verify ${label(e.note)}: add supporting evidence and set state believed, or refute it.`);
    }
    if (e.kind === 'decision' && e.phase === 'canonical' && e.vitality === 'dormant') {
      add('dormant_canonical', e.note, e.last_active, 'vitality.dormant_days', VITALITY_DAYS.dormant, `Check ${label(e.note)} still holds: confirm it by using it, or supersede or deprecate it.`);
    }
    if (e.links === 0) {
      add('orphaned_entry', e.note, e.last_active, 'drift.orphan_days', t.orphan_days, `Link ${label(e.note)} from the notes that rely on it, or retire it if nothing does.`);
    }
  }
  for (const c of input.conflicts) {
    add('unreviewed_conflict', c.a, c.created_at, 'drift.conflict_days', t.conflict_days, `Review the conflict between ${label(c.a)} and ${label(c.b)} and resolve it (lithos conflicts resolve ${c.edge_id}).`, { other: c.b, edge_id: c.edge_id });
  }
  for (const r of input.refs) {
    const todo = r.ambiguous ? `${r.ref} in ${label(r.note)} names several entries: write the full ID.` : `${r.ref} in ${label(r.note)} names no entry: correct or remove the reference.`;
    add('unresolved_ref', r.note, r.written_at, 'none', 0, todo, { ref: r.ref, ...(r.field ? { field: r.field } : {}) });
  }
  return out.sort((a, b) => b.urgency - a.urgency || b.age_days - a.age_days || DRIFT_KINDS.indexOf(a.kind) - DRIFT_KINDS.indexOf(b.kind) || (a.note.path < b.note.path ? -1 : a.note.path > b.note.path ? 1 : 0));
}
