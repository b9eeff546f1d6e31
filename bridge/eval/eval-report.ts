/** Output of `lithos eval`: the fixed JSON shape scripts rely on, and an aligned table for people. */
import { macroMean, type QueryScores } from './metrics';

export interface DatasetResult {
  name: string;
  scores: QueryScores;
  /** Queries evaluated (those with at least one relevant document in the qrels). */
  queries: number;
  /** Queries skipped because the qrels list nothing relevant for them. */
  skipped: number;
  docs: number;
  seconds: number;
}

export interface MetricRow {
  'ndcg@10': number;
  'recall@10': number;
  'mrr@10': number;
  queries: number;
}

export interface EvalJson {
  datasets: Record<string, MetricRow>;
  macro: MetricRow;
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

function row(scores: QueryScores, queries: number): MetricRow {
  return { 'ndcg@10': round4(scores.ndcg), 'recall@10': round4(scores.recall), 'mrr@10': round4(scores.mrr), queries };
}

/** Macro mean over datasets that had any evaluated query; its `queries` is their total. */
export function macroOf(results: readonly DatasetResult[]): { scores: QueryScores; queries: number } {
  const scored = results.filter((r) => r.queries > 0);
  return { scores: macroMean(scored.map((r) => r.scores)), queries: scored.reduce((s, r) => s + r.queries, 0) };
}

export function toEvalJson(results: readonly DatasetResult[]): EvalJson {
  const datasets: Record<string, MetricRow> = {};
  for (const r of results) datasets[r.name] = row(r.scores, r.queries);
  const m = macroOf(results);
  return { datasets, macro: row(m.scores, m.queries) };
}

export function formatEvalTable(results: readonly DatasetResult[], mode: string): string {
  const header = ['dataset', 'ndcg@10', 'recall@10', 'mrr@10', 'queries', 'skipped', 'docs', 'seconds'];
  const body = results.map((r) => [
    r.name,
    r.scores.ndcg.toFixed(4),
    r.scores.recall.toFixed(4),
    r.scores.mrr.toFixed(4),
    String(r.queries),
    String(r.skipped),
    String(r.docs),
    r.seconds.toFixed(1),
  ]);
  const m = macroOf(results);
  const macro = ['macro', m.scores.ndcg.toFixed(4), m.scores.recall.toFixed(4), m.scores.mrr.toFixed(4), String(m.queries),
    String(results.reduce((s, r) => s + r.skipped, 0)), String(results.reduce((s, r) => s + r.docs, 0)),
    results.reduce((s, r) => s + r.seconds, 0).toFixed(1)];
  const rows = [header, ...body, macro];
  const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const fmt = (r: string[]): string => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [`mode: ${mode}`, fmt(header), rule, ...body.map(fmt), rule, fmt(macro)].join('\n');
}
