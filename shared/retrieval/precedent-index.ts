/**
 * Matching a query against stored precedents (past queries whose results were used). An inverted index
 * from term to precedents, so a lookup touches only precedents sharing a term with the query; similarity
 * is an IDF-weighted Jaccard over term sets (a name every question shares counts little, a rare term a
 * lot). Built from the memory store's rows and cached by the corpus until a precedent changes.
 */
import { PRECEDENT_MATCH } from './constants';
import type { PrecedentMatch } from './types';
import type { PrecedentRow } from '../stores/memory-types';

export class PrecedentIndex {
  private readonly postings = new Map<string, number[]>();
  private readonly idf = new Map<string, number>();
  /** Σ idf of each precedent's terms (the precedent's side of the weighted union). */
  private readonly mass: number[];

  constructor(private readonly rows: readonly PrecedentRow[]) {
    rows.forEach((row, i) => {
      for (const t of new Set(row.terms)) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push(i);
      }
    });
    const n = rows.length;
    for (const [t, list] of this.postings) this.idf.set(t, Math.log(1 + n / list.length));
    this.mass = rows.map((row) => [...new Set(row.terms)].reduce((s, t) => s + (this.idf.get(t) ?? 0), 0));
  }

  get size(): number {
    return this.rows.length;
  }

  /**
   * Precedents at least PRECEDENT_MATCH.min_similarity similar to the query terms, most similar first.
   * Another query class's precedent counts at other_class_factor of its similarity (a note used for
   * `debug` work is weaker evidence for a `design` question than for another `debug` one).
   */
  match(terms: readonly string[], queryClass: string): PrecedentMatch[] {
    const q = [...new Set(terms)];
    if (q.length === 0 || this.rows.length === 0) return [];
    // A term no precedent has still widens the union: weigh it as the rarest known term.
    const unseen = Math.log(1 + this.rows.length);
    let qMass = 0;
    const shared = new Map<number, number>();
    for (const t of q) {
      const w = this.idf.get(t) ?? unseen;
      qMass += w;
      for (const i of this.postings.get(t) ?? []) shared.set(i, (shared.get(i) ?? 0) + w);
    }
    const out: PrecedentMatch[] = [];
    for (const [i, inter] of shared) {
      const row = this.rows[i];
      const jaccard = inter / (qMass + this.mass[i] - inter);
      const similarity = jaccard * (row.query_class === queryClass ? 1 : PRECEDENT_MATCH.other_class_factor);
      if (similarity >= PRECEDENT_MATCH.min_similarity) out.push({ query_text: row.query_text, query_class: row.query_class, used: row.used, similarity });
    }
    out.sort((a, b) => b.similarity - a.similarity || (a.query_text < b.query_text ? -1 : 1));
    return out.slice(0, PRECEDENT_MATCH.max_matches);
  }
}
