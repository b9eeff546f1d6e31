/**
 * Ranking metrics as BEIR / pytrec_eval compute them: linear graded gains (gain = qrels grade),
 * log2(rank + 1) discount, ideal ranking built from the qrels alone, relevant = grade > 0.
 */

/** Graded judgements of one query: corpus id → grade. */
export type Judgements = ReadonlyMap<string, number>;

export interface QueryScores {
  ndcg: number;
  recall: number;
  mrr: number;
}

function gainOf(judgements: Judgements, docId: string): number {
  const g = judgements.get(docId) ?? 0;
  return g > 0 ? g : 0;
}

/** Discounted cumulative gain of a ranking's first k entries. */
export function dcgAtK(gains: readonly number[], k: number): number {
  let dcg = 0;
  const n = Math.min(k, gains.length);
  for (let i = 0; i < n; i++) dcg += gains[i] / Math.log2(i + 2);
  return dcg;
}

/** nDCG@k; 0 when the query has no relevant documents (nothing to rank well). */
export function ndcgAtK(ranked: readonly string[], judgements: Judgements, k: number): number {
  const ideal = [...judgements.values()].filter((g) => g > 0).sort((a, b) => b - a);
  const idcg = dcgAtK(ideal, k);
  if (idcg === 0) return 0;
  return dcgAtK(ranked.map((id) => gainOf(judgements, id)), k) / idcg;
}

/** Share of all relevant documents (grade > 0) found in the first k; 0 when there are none. */
export function recallAtK(ranked: readonly string[], judgements: Judgements, k: number): number {
  let relevant = 0;
  for (const g of judgements.values()) if (g > 0) relevant++;
  if (relevant === 0) return 0;
  let found = 0;
  for (const id of ranked.slice(0, k)) if (gainOf(judgements, id) > 0) found++;
  return found / relevant;
}

/** Reciprocal rank of the first relevant document within the first k, else 0. */
export function mrrAtK(ranked: readonly string[], judgements: Judgements, k: number): number {
  const n = Math.min(k, ranked.length);
  for (let i = 0; i < n; i++) if (gainOf(judgements, ranked[i]) > 0) return 1 / (i + 1);
  return 0;
}

export function hasRelevant(judgements: Judgements | undefined): boolean {
  if (!judgements) return false;
  for (const g of judgements.values()) if (g > 0) return true;
  return false;
}

/**
 * All three metrics for one query, or null when the qrels list nothing relevant for it
 * (such queries are skipped, as BEIR does, rather than scored 0).
 * Duplicate ids in `ranked` (several chunks of one note) count once, at their best rank.
 */
export function scoreQuery(ranked: readonly string[], judgements: Judgements | undefined, k: number): QueryScores | null {
  if (!judgements || !hasRelevant(judgements)) return null;
  const unique = [...new Set(ranked)];
  return {
    ndcg: ndcgAtK(unique, judgements, k),
    recall: recallAtK(unique, judgements, k),
    mrr: mrrAtK(unique, judgements, k),
  };
}

/** Running mean of query scores for one dataset. */
export class ScoreAccumulator {
  private sums: QueryScores = { ndcg: 0, recall: 0, mrr: 0 };
  count = 0;
  skipped = 0;

  add(scores: QueryScores | null): void {
    if (!scores) {
      this.skipped++;
      return;
    }
    this.count++;
    this.sums.ndcg += scores.ndcg;
    this.sums.recall += scores.recall;
    this.sums.mrr += scores.mrr;
  }

  /** Means over evaluated queries; all 0 when none were evaluated. */
  mean(): QueryScores {
    if (this.count === 0) return { ndcg: 0, recall: 0, mrr: 0 };
    return { ndcg: this.sums.ndcg / this.count, recall: this.sums.recall / this.count, mrr: this.sums.mrr / this.count };
  }
}

/** Unweighted mean over datasets (each dataset counts once, whatever its query count). */
export function macroMean(perDataset: readonly QueryScores[]): QueryScores {
  if (perDataset.length === 0) return { ndcg: 0, recall: 0, mrr: 0 };
  const n = perDataset.length;
  return {
    ndcg: perDataset.reduce((s, d) => s + d.ndcg, 0) / n,
    recall: perDataset.reduce((s, d) => s + d.recall, 0) / n,
    mrr: perDataset.reduce((s, d) => s + d.mrr, 0) / n,
  };
}
