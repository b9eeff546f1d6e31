import { LithosError } from '../errors';
import { PRECEDENT_COLS, toPrecedent } from './memory-rows';
import type { ExpansionChange, ExpansionLog, IgnoredTermsLog, PrecedentChange, PrecedentLog } from './memory-precedent-log';
import type { MemoryTables } from './memory-tables';
import type { ExpansionRow, MemoryOp, PrecedentRow, TagAffinityRow } from './memory-types';
import { checkPrecedent, nonEmpty } from './memory-validate';
import { MemoryTermAssoc } from './memory-term-assoc';
import { MemoryIgnoredTerms } from './memory-ignored-terms';
import { allTermRows, decayedTermRows, type TermAdd } from './decayed-terms';

/**
 * What the learning layer keeps in memory.sqlite beside the node signals: its bookmarks (marks), the
 * precedents of past retrievals, term–tag affinity, query expansion, term associations and ignored terms.
 */
export class MemoryLearned {
  /** Learned term associations (memory-term-assoc.ts). */
  readonly assoc: MemoryTermAssoc;
  /** Words of the questions each note was ignored for (memory-ignored-terms.ts). */
  readonly ignored: MemoryIgnoredTerms;

  constructor(
    private readonly t: MemoryTables,
    private readonly log: PrecedentLog,
    private readonly expansionLog: ExpansionLog,
    ignoredLog: IgnoredTermsLog,
  ) {
    this.assoc = new MemoryTermAssoc(t);
    this.ignored = new MemoryIgnoredTerms(t, ignoredLog);
  }

  // ── learning marks ──────────────────────────────────────────────────────

  /** A learning-layer bookmark (shared/learning): null when never set. */
  mark(key: string): unknown {
    const r = this.t.db.one('SELECT value FROM learning_marks WHERE key = ?', [key]);
    return r ? (JSON.parse(String(r[0])) as unknown) : null;
  }

  /** Marks whose key starts with `prefix`, with their values (e.g. every `feedback:` mark). */
  marksWithPrefix(prefix: string): { key: string; value: unknown }[] {
    return this.t.db
      .all("SELECT key, value FROM learning_marks WHERE substr(key, 1, ?) = ? ORDER BY key", [prefix.length, prefix])
      .map((r) => ({ key: String(r[0]), value: JSON.parse(String(r[1])) as unknown }));
  }

  deleteMarks(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return Promise.resolve();
    return this.t.mutate(() => [{ kind: 'mark_del', keys: [...keys] }]);
  }

  setMark(key: string, value: unknown): Promise<void> {
    return this.t.mutate(() => {
      nonEmpty('key', key);
      return [{ kind: 'mark', key, value: value ?? null }];
    });
  }

  // ── precedents ──────────────────────────────────────────────────────────

  /**
   * Records a precedent (same id: replaced) and prunes the oldest beyond `keep`, in one mutation. The
   * row is validated first; nothing is written for a bad one.
   */
  addPrecedent(row: PrecedentRow, keep: number): Promise<void> {
    return this.t.mutate(() => {
      checkPrecedent(row);
      if (!Number.isInteger(keep) || keep < 1) throw new LithosError('invalid_argument', 'keep must be a positive integer.', { keep });
      const ops: MemoryOp[] = [{ kind: 'precedent', row: { ...row, terms: [...row.terms], used: [...row.used] } }];
      const others = Number(this.t.db.one('SELECT COUNT(*) FROM precedents WHERE precedent_id <> ?', [row.precedent_id])?.[0] ?? 0);
      if (others + 1 > keep) {
        const old = this.t.db
          .all('SELECT precedent_id FROM precedents WHERE precedent_id <> ? ORDER BY at, precedent_id LIMIT ?', [row.precedent_id, others + 1 - keep])
          .map((r) => String(r[0]));
        ops.push({ kind: 'precedent_del', ids: old });
      }
      return ops;
    });
  }

  /** Every precedent, newest first. */
  precedents(): PrecedentRow[] {
    return this.t.db.all(`SELECT ${PRECEDENT_COLS} FROM precedents ORDER BY at DESC, precedent_id DESC`).map(toPrecedent);
  }

  /** Counts precedent changes in this process (readers cache on it). */
  get precedentVersion(): number {
    return this.log.version;
  }

  /** The changes after `version`, oldest first; null when they are no longer kept (read precedents() again). */
  precedentChangesSince(version: number): readonly PrecedentChange[] | null {
    return this.log.since(version);
  }

  // ── term–tag affinity ───────────────────────────────────────────────────

  /** The affinity rows of these terms (tag '' = a term's totals) and the overall row (term and tag ''). */
  tagAffinity(terms: readonly string[]): TagAffinityRow[] {
    const list = [...new Set(['', ...terms])];
    return this.t.db
      .all(`SELECT term, tag, shown, used, at FROM tag_affinity WHERE term IN (${list.map(() => '?').join(', ')}) ORDER BY term, tag`, list)
      .map((r) => ({ term: String(r[0]), tag: String(r[1]), shown: Number(r[2]), used: Number(r[3]), at: Number(r[4]) }));
  }

  /** Adds showings and uses to term–tag rows (created as needed) in one mutation. */
  addTagAffinity(deltas: readonly Omit<TagAffinityRow, 'at'>[], at: number): Promise<void> {
    return this.t.mutate(() => {
      const sum = new Map<string, Omit<TagAffinityRow, 'at'>>();
      for (const d of deltas) {
        if (!(Number.isInteger(d.shown) && Number.isInteger(d.used) && d.used >= 0 && d.shown >= d.used)) {
          throw new LithosError('invalid_argument', 'Affinity counts must be integers with 0 <= used <= shown.', { term: d.term, tag: d.tag });
        }
        const key = JSON.stringify([d.term, d.tag]);
        const s = sum.get(key);
        sum.set(key, s ? { ...s, shown: s.shown + d.shown, used: s.used + d.used } : { ...d });
      }
      const rows: TagAffinityRow[] = [];
      for (const d of sum.values()) {
        const r = this.t.db.one('SELECT shown, used, at FROM tag_affinity WHERE term = ? AND tag = ?', [d.term, d.tag]);
        rows.push({ ...d, shown: d.shown + Number(r?.[0] ?? 0), used: d.used + Number(r?.[1] ?? 0), at: Math.max(at, Number(r?.[2] ?? at)) });
      }
      return rows.length ? [{ kind: 'affinity', rows }] : [];
    });
  }

  /** Forgets term–tag rows last counted before `before` with fewer than `below` showings; the overall row stays. */
  async pruneTagAffinity(before: number, below: number): Promise<number> {
    const n = Number(this.t.db.one("SELECT COUNT(*) FROM tag_affinity WHERE at < ? AND shown < ? AND NOT (term = '' AND tag = '')", [before, below])?.[0] ?? 0);
    if (n > 0) await this.t.mutate(() => [{ kind: 'affinity_prune', before, below }]);
    return n;
  }

  // ── query expansion ─────────────────────────────────────────────────────

  /** Every query-expansion row, in key order. */
  expansionRows(): ExpansionRow[] {
    return allTermRows(this.t.db, 'query_expansion');
  }

  /**
   * Adds each add's weight (default 1) to its (scope, note, term) at `at`, in one mutation. A note's rows in that
   * scope are first decayed to `at` (halving every `halfLifeDays`) and re-stamped; beyond `maxTerms` per note and
   * scope the weakest are dropped (stores/decayed-terms.ts).
   */
  addExpansion(adds: readonly TermAdd[], at: number, halfLifeDays: number, maxTerms: number): Promise<void> {
    return this.t.mutate(() => {
      const rows = decayedTermRows(this.t.db, 'query_expansion', adds, at, halfLifeDays, maxTerms);
      return rows.length ? [{ kind: 'expansion', rows }] : [];
    });
  }

  /** Counts query-expansion changes in this process (readers cache on it). */
  get expansionVersion(): number {
    return this.expansionLog.version;
  }

  /** The changes after `version`, oldest first; null when they are no longer kept (read expansionRows() again). */
  expansionChangesSince(version: number): readonly ExpansionChange[] | null {
    return this.expansionLog.since(version);
  }
}
