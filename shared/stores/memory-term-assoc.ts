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
   * Writes rows (final counts) in one mutation; then, beyond `maxTerms` rows in a scope, drops that scope's
   * weakest (fewest showings, then least recently counted). Rows are checked first: nothing is written for a bad one.
   */
  put(rows: readonly TermAssocRow[], maxTerms: number): Promise<void> {
    return this.t.mutate(() => {
      if (!Number.isInteger(maxTerms) || maxTerms < 1) throw new LithosError('invalid_argument', 'maxTerms must be a positive integer.', { maxTerms });
      for (const r of rows) check(r);
      if (rows.length === 0) return [];
      const written = new Set(rows.map((r) => JSON.stringify([r.scope, r.term])));
      const drop: { scope: string; term: string }[] = [];
      for (const scope of new Set(rows.map((r) => r.scope))) {
        const fresh = rows.filter((r) => r.scope === scope && !this.t.db.one('SELECT 1 FROM term_assoc WHERE scope = ? AND term = ?', [scope, r.term])).length;
        const total = Number(this.t.db.one('SELECT COUNT(*) FROM term_assoc WHERE scope = ?', [scope])?.[0] ?? 0) + fresh;
        if (total <= maxTerms) continue;
        // The rows written now are kept: the weakest of the others go.
        for (const r of this.t.db.all('SELECT term FROM term_assoc WHERE scope = ? ORDER BY shown, at, term', [scope])) {
          if (drop.length >= total - maxTerms) break;
          const term = String(r[0]);
          if (!written.has(JSON.stringify([scope, term]))) drop.push({ scope, term });
        }
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
  return { scope: String(r[0]), term: String(r[1]), shown: Number(r[2]), used: Number(r[3]), words: JSON.parse(String(r[4])) as TermAssocRow['words'], at: Number(r[5]) };
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
