import { LithosError } from '../errors';
import type { MemoryTables } from './memory-tables';
import type { TermAssocRow } from './memory-types';
import { nonEmpty } from './memory-validate';

/**
 * memory.sqlite's learned term associations (table term_assoc; learning/term-assoc.ts counts them,
 * retrieval/term-assoc.ts reads them): one row per (scope, query term), its word counts as JSON.
 */
export class MemoryTermAssoc {
  constructor(private readonly t: MemoryTables) {}

  /** The rows of these terms in these scopes, in key order. */
  rows(terms: readonly string[], scopes: readonly string[]): TermAssocRow[] {
    const ts = [...new Set(terms)];
    const ss = [...new Set(scopes)];
    if (ts.length === 0 || ss.length === 0) return [];
    return this.t.db
      .all(
        `SELECT scope, term, shown, used, words, at FROM term_assoc WHERE scope IN (${ss.map(() => '?').join(', ')}) AND term IN (${ts.map(() => '?').join(', ')}) ORDER BY scope, term`,
        [...ss, ...ts],
      )
      .map(toRow);
  }

  /** Every row, in key order (tests, reports). */
  all(): TermAssocRow[] {
    return this.t.db.all('SELECT scope, term, shown, used, words, at FROM term_assoc ORDER BY scope, term').map(toRow);
  }

  /**
   * Writes rows (final counts) in one mutation; beyond `maxTerms` rows in a scope, the scope's weakest as they
   * will stand (fewest showings, then least recently counted) are dropped. Rows are checked first: nothing is
   * written for a bad one.
   */
  put(rows: readonly TermAssocRow[], maxTerms: number): Promise<void> {
    return this.t.mutate(() => {
      if (!Number.isInteger(maxTerms) || maxTerms < 1) throw new LithosError('invalid_argument', 'maxTerms must be a positive integer.', { maxTerms });
      for (const r of rows) check(r);
      if (rows.length === 0) return [];
      const drop: { scope: string; term: string }[] = [];
      for (const scope of new Set(rows.map((r) => r.scope))) {
        const mine = rows.filter((r) => r.scope === scope);
        const writing = new Set(mine.map((r) => r.term));
        const fresh = mine.filter((r) => !this.t.db.one('SELECT 1 FROM term_assoc WHERE scope = ? AND term = ?', [scope, r.term])).length;
        const excess = Number(this.t.db.one('SELECT COUNT(*) FROM term_assoc WHERE scope = ?', [scope])?.[0] ?? 0) + fresh - maxTerms;
        if (excess <= 0) continue;
        // The weakest of the rows as they will stand, those written now included (they are the newest of equals).
        const stored = this.t.db
          .all('SELECT term, shown, at FROM term_assoc WHERE scope = ? ORDER BY shown, at, term LIMIT ?', [scope, excess + writing.size])
          .map((r) => ({ term: String(r[0]), shown: Number(r[1]), at: Number(r[2]) }))
          .filter((r) => !writing.has(r.term));
        const weakest = [...stored, ...mine].sort((a, b) => a.shown - b.shown || a.at - b.at || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)).slice(0, excess);
        for (const w of weakest) drop.push({ scope, term: w.term });
      }
      return [{ kind: 'assoc', rows: rows.map((r) => ({ ...r, words: { ...r.words } })), drop }];
    });
  }

  /** Forgets rows last counted before `before` with fewer than `below` showings. */
  async prune(before: number, below: number): Promise<number> {
    const n = Number(this.t.db.one('SELECT COUNT(*) FROM term_assoc WHERE at < ? AND shown < ?', [before, below])?.[0] ?? 0);
    if (n > 0) await this.t.mutate(() => [{ kind: 'assoc_prune', before, below }]);
    return n;
  }
}

function toRow(r: unknown[]): TermAssocRow {
  return { scope: String(r[0]), term: String(r[1]), shown: Number(r[2]), used: Number(r[3]), words: wordsOf(String(r[4])), at: Number(r[5]) };
}

/** The words column; a value that is not word → [shown, used] (a hand edit) reads as no words, never as an error mid-retrieval. */
function wordsOf(json: string): TermAssocRow['words'] {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return {};
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: TermAssocRow['words'] = {};
  for (const [w, c] of Object.entries(v)) if (Array.isArray(c) && c.length === 2 && count(c[0]) && count(c[1])) out[w] = [c[0] as number, c[1] as number];
  return out;
}

const count = (x: unknown): boolean => Number.isInteger(x) && (x as number) >= 0;

function check(r: TermAssocRow): void {
  nonEmpty('term', r.term);
  const bad = (why: string): never => {
    throw new LithosError('invalid_argument', `Term association "${r.term}": ${why}.`, { scope: r.scope, term: r.term });
  };
  if (!count(r.shown) || !count(r.used) || r.used > r.shown) bad('counts must be integers with 0 <= used <= shown');
  if (!Number.isFinite(r.at)) bad('at must be a time');
  for (const [w, c] of Object.entries(r.words)) {
    if (!Array.isArray(c) || c.length !== 2 || !count(c[0]) || !count(c[1]) || c[1] > c[0] || c[0] > r.shown) bad(`word "${w}" needs counts 0 <= used <= shown <= the term's shown`);
  }
}
