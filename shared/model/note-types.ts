/**
 * Note types are first-class: one table says, per note_type, how retrieval weighs it for each query class,
 * how its salience decays, whether the engine may edit it on its own, and how a contradiction involving it
 * is settled. Retrieval (rerank type_prior), decay (decay.ts), summary refresh (summaries.ts, auto_edit) and
 * conflicts (precedence.ts) read it from here; docs/learning.md describes it.
 */
import type { NoteType } from './types';

export interface NoteTypeRow {
  /** type_prior per query class in [0,1]; 0.5 is neutral; `default` covers classes not listed. */
  priors: Record<string, number>;
  /** Days for salience above the floor to halve while the note goes unused. */
  half_life_days: number;
  /** Decay never takes salience below this (feedback still can: a misleading note may sink lower). */
  floor: number;
  /**
   * Whether the engine may rewrite the note on its own: consolidation refreshes `summaries` only in these
   * (learning/summaries.ts). Observations, findings and task records are evidence or status: only their
   * author edits them (an automatic newest-wins resolution therefore archives nothing; conflicts/precedence.ts).
   */
  auto_edit: boolean;
  /**
   * In a contradiction: `newest_wins` — the later note supersedes (a task record, a status); `signal` —
   * the disagreement is surfaced and ranked, never settled by timestamps alone.
   */
  contradiction: 'newest_wins' | 'signal';
}

const row = (
  debug: number, design: number, planning: number, write: number, decision: number, synthesis: number, lookup: number,
  rest: Omit<NoteTypeRow, 'priors'>,
): NoteTypeRow => ({ priors: { debug, design, planning, write, decision, synthesis, lookup, default: 0.5 }, ...rest });

//                                        debug design planning write decision synthesis lookup
export const NOTE_TYPE_TABLE: Record<NoteType, NoteTypeRow> = {
  observation: row(0.5, 0.45, 0.4, 0.5, 0.45, 0.5, 0.55, { half_life_days: 60, floor: 0.3, auto_edit: false, contradiction: 'signal' }),
  agent_finding: row(0.8, 0.6, 0.55, 0.55, 0.7, 0.65, 0.55, { half_life_days: 90, floor: 0.35, auto_edit: false, contradiction: 'signal' }),
  summary: row(0.4, 0.65, 0.7, 0.75, 0.6, 0.7, 0.6, { half_life_days: 120, floor: 0.4, auto_edit: true, contradiction: 'signal' }),
  concept: row(0.35, 0.7, 0.5, 0.65, 0.55, 0.7, 0.55, { half_life_days: 180, floor: 0.45, auto_edit: true, contradiction: 'signal' }),
  task_record: row(0.7, 0.45, 0.75, 0.4, 0.6, 0.45, 0.5, { half_life_days: 30, floor: 0.2, auto_edit: false, contradiction: 'newest_wins' }),
  hypothesis: row(0.5, 0.6, 0.5, 0.35, 0.45, 0.55, 0.4, { half_life_days: 45, floor: 0.25, auto_edit: false, contradiction: 'signal' }),
  // Ledger kinds (model/ledger.ts). No dev dataset has them, so their priors are not tuned: a decision and a
  // workflow lean like a summary, a claim like a finding, a construct like a concept; the person or an agent
  // changes them through intents, never the engine (auto_edit false), and a contradiction is surfaced.
  decision: row(0.5, 0.65, 0.7, 0.6, 0.75, 0.65, 0.6, { half_life_days: 180, floor: 0.4, auto_edit: false, contradiction: 'signal' }),
  claim: row(0.7, 0.6, 0.55, 0.55, 0.7, 0.65, 0.6, { half_life_days: 120, floor: 0.35, auto_edit: false, contradiction: 'signal' }),
  workflow: row(0.6, 0.55, 0.75, 0.6, 0.55, 0.55, 0.55, { half_life_days: 180, floor: 0.4, auto_edit: false, contradiction: 'signal' }),
  construct: row(0.6, 0.7, 0.5, 0.6, 0.55, 0.65, 0.6, { half_life_days: 180, floor: 0.4, auto_edit: false, contradiction: 'signal' }),
};

/**
 * type_prior(note_type, query_class), indexed by class first as the re-rank reads it. Derived from the
 * table above so there is one source.
 */
export const TYPE_PRIORS: Record<string, Record<NoteType, number>> = (() => {
  const out: Record<string, Record<NoteType, number>> = {};
  for (const [type, r] of Object.entries(NOTE_TYPE_TABLE) as [NoteType, NoteTypeRow][]) {
    for (const [cls, p] of Object.entries(r.priors)) (out[cls] ??= {} as Record<NoteType, number>)[type] = p;
  }
  return out;
})();

export function noteTypeRow(type: string): NoteTypeRow {
  return NOTE_TYPE_TABLE[type as NoteType] ?? NOTE_TYPE_TABLE.observation;
}

/** Tags that make any note status-like (its latest version is the truth, as for task records). */
export const STATUS_TAGS: readonly string[] = ['status'];

/** How a contradiction touching this note is settled: timestamps decide only for task records and status-like notes. */
export function contradictionPrecedence(note: { note_type: string; tags?: readonly string[] }): 'newest_wins' | 'signal' {
  if (note.tags?.some((t) => STATUS_TAGS.includes(t.toLowerCase()))) return 'newest_wins';
  return noteTypeRow(note.note_type).contradiction;
}
