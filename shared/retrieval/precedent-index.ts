/**
 * Matching a query against stored precedents (past queries whose results were used). An inverted index
 * from term to precedents, so a lookup touches only precedents sharing a term with the query; similarity
 * is an IDF-weighted Jaccard over term sets (a name every question shares counts little, a rare term a
 * lot). Kept up to date incrementally (add / remove), so new feedback never costs a full rebuild.
 */
import { PRECEDENT_MATCH } from './constants';
import type { PrecedentMatch } from './types';
import type { PrecedentRow } from '../stores/memory-types';

export class PrecedentIndex {
  private readonly rows = new Map<string, { row: PrecedentRow; terms: string[] }>();
  private readonly postings = new Map<string, Set<string>>();

  constructor(rows: readonly PrecedentRow[] = []) {
    for (const r of rows) this.add(r);
  }

  get size(): number {
    return this.rows.size;
  }

  /** Adds a precedent, replacing one with the same id. */
  add(row: PrecedentRow): void {
    this.remove(row.precedent_id);
    const terms = [...new Set(row.terms)];
    this.rows.set(row.precedent_id, { row, terms });
    for (const t of terms) {
      let ids = this.postings.get(t);
      if (!ids) this.postings.set(t, (ids = new Set()));
      ids.add(row.precedent_id);
    }
  }

  remove(id: string): void {
    const entry = this.rows.get(id);
    if (!entry) return;
    this.rows.delete(id);
    for (const t of entry.terms) {
      const ids = this.postings.get(t);
      ids?.delete(id);
      if (ids?.size === 0) this.postings.delete(t);
    }
  }

  /**
   * Precedents at least PRECEDENT_MATCH.min_similarity similar to the query terms, most similar first.
   * Another query class's precedent counts at other_class_factor of its similarity (a note used for
   * `debug` work is weaker evidence for a `design` question than for another `debug` one).
   */
  match(terms: readonly string[], queryClass: string): PrecedentMatch[] {
    const q = [...new Set(terms)];
    const n = this.rows.size;
    if (q.length === 0 || n === 0) return [];
    // A term no precedent has still widens the union: it weighs as the rarest possible term.
    const idf = (t: string): number => Math.log(1 + n / (this.postings.get(t)?.size || 1));
    let qMass = 0;
    const shared = new Map<string, number>();
    for (const t of q) {
      const w = idf(t);
      qMass += w;
      for (const id of this.postings.get(t) ?? []) shared.set(id, (shared.get(id) ?? 0) + w);
    }
    const out: (PrecedentMatch & { id: string })[] = [];
    for (const [id, inter] of shared) {
      const { row, terms: own } = this.rows.get(id)!;
      let mass = 0;
      for (const t of own) mass += idf(t);
      const similarity = (inter / (qMass + mass - inter)) * (row.query_class === queryClass ? 1 : PRECEDENT_MATCH.other_class_factor);
      if (similarity >= PRECEDENT_MATCH.min_similarity) out.push({ id, query_text: row.query_text, agent_id: row.agent_id, query_class: row.query_class, used: row.used, similarity });
    }
    out.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1)); // ties by id: a stable order
    return out.slice(0, PRECEDENT_MATCH.max_matches).map(({ id: _id, ...m }) => m);
  }
}
