/**
 * Query-log document expansion, the reading side: the words of the questions a note was used for form a
 * second, separate lexical field of that note (learning/query-expansion.ts records them from feedback), and
 * the expansion scout scores it with BM25. A question worded differently from the note, but like earlier
 * questions the note answered, finds it through that field.
 *
 * The index holds one field set per scope ('' = words every reader may learn from; an agent id = that
 * agent's own questions), kept up to date from the store's change log, so adding rows one feedback at a
 * time gives the same index as building it from the table. Weights decay at query time (exponential, half
 * life QUERY_EXPANSION.half_life_days), so an old question's words fade without any rewrite.
 */
import { decayedWeight, TermFieldIndex, type Posting } from './term-field-index';

/** The signal's constants, chosen by cross-validation (`lithos eval --feedback-split 0.5 --cv`, docs/learning.md). */
export const QUERY_EXPANSION = {
  /** Query terms recorded per feedback (a pasted paragraph does not flood a note's field). */
  max_query_terms: 16,
  /** Terms kept per note and scope (the weakest are dropped). */
  max_terms: 64,
  /** A term's weight in a note's field halves over this many days without another use. */
  half_life_days: 90,
  /** BM25 term saturation and length normalisation of the expansion field. */
  k1: 1.2,
  b: 0.75,
  /**
   * A note whose field scores below this share of the query's best possible score is not proposed. 0: the
   * cross-validation pick once the field keeps only words the note lacks (matched_weight 0), which already
   * leaves out what a note says itself, such as a speaker's name on every turn of a conversation.
   */
  min_score: 0,
  /**
   * How much a note's ignored-for words (ignored-terms.ts) take back from its match: its score × max(0, 1 −
   * ignored_offset × how much of the query they cover). A note used for questions like this one, and since
   * passed over for them, is not proposed as one only ever used. 0: not read. 2 (half the query covered takes
   * the whole match back): the point the cross-validation objective picks on all dev data
   * (scripts/feedback-cv-grid-6.json, -14 and -15; docs/evaluation.md).
   */
  ignored_offset: 2,
  /**
   * The weight a question word gets in a used note's field when the note's text (SearchService.noteText: body and
   * headings, not the title) holds that word (1: every word alike). The lexical scout already matches a note on its own words; the field's own work is the words of
   * past questions the note lacks (vocabulary it answered without saying). 0: the point the cross-validation
   * objective picks on all dev data (scripts/feedback-cv-grid-8.json to -13; docs/evaluation.md).
   */
  matched_weight: 0,
};

export interface ExpansionHit {
  id: string;
  /** BM25 over the field, divided by the most the query's terms could score: in [0,1]. */
  score: number;
  /** The query's terms found in the note's field, strongest first. */
  terms: string[];
}

const decayed = (p: Posting, now: number): number => decayedWeight(p, now, QUERY_EXPANSION.half_life_days);

export class ExpansionIndex extends TermFieldIndex {
  /**
   * Notes whose expansion field matches the query's terms, best first. Only the shared scope and the
   * reader's own (`agentId`) are read: another agent's questions never reach this reader. Per scope, BM25
   * over that scope's fields; a note's score is the sum over the two scopes, divided by the most the
   * query could score in one (every term at saturation), and capped at 1.
   */
  match(terms: readonly string[], agentId: string | null, now: number): ExpansionHit[] {
    const q = [...new Set(terms)];
    if (q.length === 0) return [];
    const scores = new Map<string, { score: number; terms: Map<string, number> }>();
    const { k1, b } = QUERY_EXPANSION;
    let most = 0;
    for (const scope of agentId ? ['', agentId] : ['']) {
      const f = this.scopes.get(scope);
      if (!f) continue;
      const n = f.docs.size;
      const lengths = new Map<string, number>();
      const lengthOf = (node: string): number => {
        let l = lengths.get(node);
        if (l === undefined) {
          l = 0;
          for (const p of f.docs.get(node)!.values()) l += decayed(p, now);
          lengths.set(node, l);
        }
        return l;
      };
      // Average field length over the notes that have one (a handful of terms each): computed per query, decayed.
      let total = 0;
      for (const node of f.docs.keys()) total += lengthOf(node);
      const avg = total / n || 1;
      let scopeMost = 0;
      for (const t of q) {
        const byNote = f.postings.get(t);
        const df = byNote?.size ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        scopeMost += idf * (k1 + 1);
        if (!byNote) continue;
        for (const [node, p] of byNote) {
          const tf = decayed(p, now);
          const s = (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengthOf(node)) / avg));
          let e = scores.get(node);
          if (!e) scores.set(node, (e = { score: 0, terms: new Map() }));
          e.score += s;
          e.terms.set(t, (e.terms.get(t) ?? 0) + s);
        }
      }
      most = Math.max(most, scopeMost);
    }
    if (most <= 0) return [];
    const hits: ExpansionHit[] = [];
    for (const [id, e] of scores) {
      if (e.score / most < QUERY_EXPANSION.min_score) continue;
      const terms = [...e.terms].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([t]) => t);
      hits.push({ id, score: Math.min(1, e.score / most), terms });
    }
    return hits.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
  }
}
