import { LithosError } from '../errors';
import { PRECEDENT_COLS, toPrecedent } from './memory-rows';
import type { ExpansionChange, ExpansionLog, PrecedentChange, PrecedentLog } from './memory-precedent-log';
import type { MemoryTables } from './memory-tables';
import type { ExpansionRow, MemoryOp, PrecedentRow, TagAffinityRow } from './memory-types';
import { checkPrecedent, nonEmpty } from './memory-validate';
import { MemoryTermAssoc } from './memory-term-assoc';

/**
 * What the learning layer keeps in memory.sqlite beside the node signals: its bookmarks (marks), the
 * precedents of past retrievals, term–tag affinity, query expansion and term associations.
 */
export class MemoryLearned {
  /** Learned term associations (memory-term-assoc.ts). */
  readonly assoc: MemoryTermAssoc;

  constructor(
    private readonly t: MemoryTables,
    private readonly log: PrecedentLog,
    private readonly expansionLog: ExpansionLog,
  ) {
    this.assoc = new MemoryTermAssoc(t);
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
    return this.t.db
      .all('SELECT scope, node_id, term, weight, at FROM query_expansion ORDER BY scope, node_id, term')
      .map((r) => ({ scope: String(r[0]), node_id: String(r[1]), term: String(r[2]), weight: Number(r[3]), at: Number(r[4]) }));
  }

  /**
   * Adds 1 to each (scope, note, term) at `at`, in one mutation. A note's rows in that scope are first decayed
   * to `at` (halving every `halfLifeDays`; exact, as exponential decay does not depend on when it is applied)
   * and re-stamped; beyond `maxTerms` per note and scope the weakest are dropped.
   */
  addExpansion(adds: readonly { scope: string; node_id: string; term: string }[], at: number, halfLifeDays: number, maxTerms: number): Promise<void> {
    return this.t.mutate(() => {
      if (!(halfLifeDays > 0) || !Number.isInteger(maxTerms) || maxTerms < 1) throw new LithosError('invalid_argument', 'Expansion needs a positive half-life and term bound.', { halfLifeDays, maxTerms });
      const groups = new Map<string, { scope: string; node_id: string; terms: string[] }>();
      for (const a of adds) {
        nonEmpty('node_id', a.node_id);
        nonEmpty('term', a.term);
        const key = JSON.stringify([a.scope, a.node_id]);
        const g = groups.get(key) ?? { scope: a.scope, node_id: a.node_id, terms: [] };
        g.terms.push(a.term);
        groups.set(key, g);
      }
      const rows: ExpansionRow[] = [];
      for (const g of groups.values()) {
        const weights = new Map<string, number>();
        for (const r of this.t.db.all('SELECT term, weight, at FROM query_expansion WHERE scope = ? AND node_id = ?', [g.scope, g.node_id])) {
          weights.set(String(r[0]), Number(r[1]) * Math.pow(0.5, Math.max(0, at - Number(r[2])) / (halfLifeDays * 86_400_000)));
        }
        for (const t of g.terms) weights.set(t, (weights.get(t) ?? 0) + 1);
        const ranked = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
        ranked.forEach(([term, w], i) => rows.push({ scope: g.scope, node_id: g.node_id, term, weight: i < maxTerms ? Math.round(w * 1e6) / 1e6 : 0, at }));
      }
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
