/**
 * Per-note fields of weighted terms, one set per scope ('' = words every reader may learn from; an agent id =
 * that agent's own), held in memory from rows shaped as ExpansionRow and kept up to date row by row, so an
 * index fed one change at a time equals one built from the table. Query expansion (the words of questions a
 * note was used for) and ignored terms (the words of questions it was ignored for) read them differently.
 */
import type { ExpansionRow } from '../stores/memory-types';

export interface Posting {
  weight: number;
  at: number;
}

/** A posting's weight at `now`: it halves every `halfLifeDays` after it was stamped. */
export const decayedWeight = (p: Posting, now: number, halfLifeDays: number): number => p.weight * Math.pow(0.5, Math.max(0, now - p.at) / (halfLifeDays * 86_400_000));

export class ScopeField {
  /** term → note → posting */
  readonly postings = new Map<string, Map<string, Posting>>();
  /** note → term → posting */
  readonly docs = new Map<string, Map<string, Posting>>();

  set(row: ExpansionRow): void {
    this.drop(row.node_id, row.term);
    if (!(row.weight > 0)) return;
    const p = { weight: row.weight, at: row.at };
    let byNote = this.postings.get(row.term);
    if (!byNote) this.postings.set(row.term, (byNote = new Map<string, Posting>()));
    byNote.set(row.node_id, p);
    let doc = this.docs.get(row.node_id);
    if (!doc) this.docs.set(row.node_id, (doc = new Map<string, Posting>()));
    doc.set(row.term, p);
  }

  drop(node: string, term: string): void {
    const byNote = this.postings.get(term);
    if (byNote?.delete(node) && byNote.size === 0) this.postings.delete(term);
    const doc = this.docs.get(node);
    if (doc?.delete(term) && doc.size === 0) this.docs.delete(node);
  }

  purge(node: string): void {
    for (const term of [...(this.docs.get(node)?.keys() ?? [])]) this.drop(node, term);
  }
}

export class TermFieldIndex {
  protected readonly scopes = new Map<string, ScopeField>();

  constructor(rows: readonly ExpansionRow[] = []) {
    for (const r of rows) this.set(r);
  }

  /** Sets one row (weight 0: removes it). */
  set(row: ExpansionRow): void {
    let f = this.scopes.get(row.scope);
    if (!f) this.scopes.set(row.scope, (f = new ScopeField()));
    f.set(row);
    if (f.docs.size === 0) this.scopes.delete(row.scope);
  }

  /** Forgets a purged note in every scope. */
  purge(node: string): void {
    for (const [scope, f] of this.scopes) {
      f.purge(node);
      if (f.docs.size === 0) this.scopes.delete(scope);
    }
  }

  /**
   * How much of the query a note's field covers, in [0, 1]: the IDF-weighted share of the query's distinct
   * terms found in it (a term counts up to weight 1, decayed), over the shared scope and the reader's own.
   * IDF over the fields read, so a word of every question (a person's name in a conversation) counts little
   * and a word no note holds weighs in the denominator. 0 for every note when the query has no terms or the
   * fields are empty.
   */
  coverage(terms: readonly string[], agentId: string | null, now: number, halfLifeDays: number): (id: string) => number {
    const q = [...new Set(terms)];
    const fields = (agentId ? ['', agentId] : ['']).map((s) => this.scopes.get(s)).filter((f) => f !== undefined);
    if (q.length === 0 || fields.length === 0) return () => 0;
    let n = 0;
    for (const f of fields) n += f.docs.size;
    const idf = q.map((t) => {
      let df = 0;
      for (const f of fields) df += f.postings.get(t)?.size ?? 0;
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    });
    const total = idf.reduce((a, b) => a + b, 0);
    return (id) => {
      let covered = 0;
      q.forEach((t, i) => {
        let w = 0;
        for (const f of fields) {
          const p = f.docs.get(id)?.get(t);
          if (p) w = Math.max(w, decayedWeight(p, now, halfLifeDays));
        }
        covered += idf[i] * Math.min(1, w);
      });
      return total > 0 ? covered / total : 0;
    };
  }

  /** Every row it holds, in key order (tests compare an incremental index with a rebuilt one). */
  rows(): ExpansionRow[] {
    const out: ExpansionRow[] = [];
    for (const [scope, f] of this.scopes) for (const [node_id, doc] of f.docs) for (const [term, p] of doc) out.push({ scope, node_id, term, weight: p.weight, at: p.at });
    const key = (r: ExpansionRow): string => JSON.stringify([r.scope, r.node_id, r.term]);
    return out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
}
