import { LithosError } from '../errors';
import type { SqlDb } from './sql-db';
import type { ExpansionRow } from './memory-types';
import { nonEmpty } from './memory-validate';

/** The tables of per-note term weights that decay by a half-life (query_expansion, ignored_terms). */
export type DecayedTermTable = 'query_expansion' | 'ignored_terms';

/** One count to add to a note's term; `weight` 1 unless given (query expansion weighs the words a note holds less). */
export interface TermAdd {
  scope: string;
  node_id: string;
  term: string;
  weight?: number;
}

/**
 * The rows that adding each add's weight (1 when it gives none) to its (scope, note, term) at `at` leaves: a
 * note's rows in that scope are first decayed to `at` (halving every `halfLifeDays`; exact, as exponential decay
 * does not depend on when it is applied) and re-stamped; beyond `maxTerms` per note and scope the weakest get
 * weight 0 (deleted). Checks every add first (a weight must be in (0, 1]): a bad one throws before anything is
 * written.
 */
export function decayedTermRows(
  db: SqlDb,
  table: DecayedTermTable,
  adds: readonly TermAdd[],
  at: number,
  halfLifeDays: number,
  maxTerms: number,
): ExpansionRow[] {
  if (!(halfLifeDays > 0) || !Number.isInteger(maxTerms) || maxTerms < 1) throw new LithosError('invalid_argument', 'Term weights need a positive half-life and term bound.', { halfLifeDays, maxTerms });
  const groups = new Map<string, { scope: string; node_id: string; terms: [string, number][] }>();
  for (const a of adds) {
    nonEmpty('node_id', a.node_id);
    nonEmpty('term', a.term);
    const weight = a.weight ?? 1;
    if (!(weight > 0 && weight <= 1)) throw new LithosError('invalid_argument', 'A term weight must be in (0, 1].', { term: a.term, weight });
    const key = JSON.stringify([a.scope, a.node_id]);
    const g = groups.get(key) ?? { scope: a.scope, node_id: a.node_id, terms: [] };
    g.terms.push([a.term, weight]);
    groups.set(key, g);
  }
  const rows: ExpansionRow[] = [];
  for (const g of groups.values()) {
    const weights = new Map<string, number>();
    for (const r of db.all(`SELECT term, weight, at FROM ${table} WHERE scope = ? AND node_id = ?`, [g.scope, g.node_id])) {
      weights.set(String(r[0]), Number(r[1]) * Math.pow(0.5, Math.max(0, at - Number(r[2])) / (halfLifeDays * 86_400_000)));
    }
    for (const [t, w] of g.terms) weights.set(t, (weights.get(t) ?? 0) + w);
    const ranked = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    ranked.forEach(([term, w], i) => rows.push({ scope: g.scope, node_id: g.node_id, term, weight: i < maxTerms ? Math.round(w * 1e6) / 1e6 : 0, at }));
  }
  return rows;
}

/** Every row of the table, in key order. */
export function allTermRows(db: SqlDb, table: DecayedTermTable): ExpansionRow[] {
  return db
    .all(`SELECT scope, node_id, term, weight, at FROM ${table} ORDER BY scope, node_id, term`)
    .map((r) => ({ scope: String(r[0]), node_id: String(r[1]), term: String(r[2]), weight: Number(r[3]), at: Number(r[4]) }));
}
