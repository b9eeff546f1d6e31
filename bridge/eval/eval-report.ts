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
  /** pts mode: the temperature of every evaluated query. */
  temperatures?: number[];
}

export interface MetricRow {
  'ndcg@10': number;
  'recall@10': number;
  'mrr@10': number;
  queries: number;
  temperature_mean?: number;
  temperature_std?: number;
}

export interface EvalJson {
  datasets: Record<string, MetricRow>;
  /** Macro mean over every dataset folder. */
  macro: MetricRow;
  /** Folders found inside one collection argument (`locomo-turns/conv-26`, …) macro-averaged per collection. */
  collections: Record<string, MetricRow>;
  /** Macro mean over collections and standalone datasets: the figure comparable to ../shared's reference. */
  macro_by_collection: MetricRow;
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

function row(scores: QueryScores, queries: number, temps?: { mean: number; std: number }): MetricRow {
  const r: MetricRow = { 'ndcg@10': round4(scores.ndcg), 'recall@10': round4(scores.recall), 'mrr@10': round4(scores.mrr), queries };
  if (temps) Object.assign(r, { temperature_mean: round4(temps.mean), temperature_std: round4(temps.std) });
  return r;
}

export function meanStd(xs: readonly number[]): { mean: number; std: number } {
  if (xs.length === 0) return { mean: 0, std: 0 };
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const v = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
  return { mean, std: Math.sqrt(v) };
}

/** Macro of per-dataset temperature means and standard deviations (undefined outside pts mode). */
function macroTemps(results: readonly DatasetResult[]): { mean: number; std: number } | undefined {
  const t = results.filter((r) => r.temperatures && r.queries > 0).map((r) => meanStd(r.temperatures!));
  if (t.length === 0) return undefined;
  return { mean: t.reduce((s, x) => s + x.mean, 0) / t.length, std: t.reduce((s, x) => s + x.std, 0) / t.length };
}

function collectionOf(name: string): string {
  const i = name.indexOf('/');
  return i === -1 ? name : name.slice(0, i);
}

/** One pseudo-result per collection (its folders macro-averaged), standalone datasets as they are. */
export function byCollection(results: readonly DatasetResult[]): DatasetResult[] {
  const groups = new Map<string, DatasetResult[]>();
  for (const r of results) groups.set(collectionOf(r.name), [...(groups.get(collectionOf(r.name)) ?? []), r]);
  return [...groups.entries()].map(([name, rs]) => {
    const m = macroOf(rs);
    const t = macroTemps(rs);
    return {
      name,
      scores: m.scores,
      queries: m.queries,
      skipped: rs.reduce((s, r) => s + r.skipped, 0),
      docs: rs.reduce((s, r) => s + r.docs, 0),
      seconds: rs.reduce((s, r) => s + r.seconds, 0),
      // a collection's temperature spread is the macro of its folders'
      temperatures: t ? [t.mean - t.std, t.mean + t.std] : undefined,
    };
  });
}

/** Macro mean over datasets that had any evaluated query; its `queries` is their total. */
export function macroOf(results: readonly DatasetResult[]): { scores: QueryScores; queries: number } {
  const scored = results.filter((r) => r.queries > 0);
  return { scores: macroMean(scored.map((r) => r.scores)), queries: scored.reduce((s, r) => s + r.queries, 0) };
}

export function toEvalJson(results: readonly DatasetResult[]): EvalJson {
  const datasets: Record<string, MetricRow> = {};
  for (const r of results) datasets[r.name] = row(r.scores, r.queries, r.temperatures ? meanStd(r.temperatures) : undefined);
  const m = macroOf(results);
  const groups = byCollection(results);
  const collections: Record<string, MetricRow> = {};
  for (const g of groups) if (g.name !== g.name.split('/')[0] || results.some((r) => r.name.startsWith(g.name + '/'))) {
    collections[g.name] = row(g.scores, g.queries, g.temperatures ? meanStd(g.temperatures) : undefined);
  }
  const gm = macroOf(groups);
  return {
    datasets,
    macro: row(m.scores, m.queries, macroTemps(results)),
    collections,
    macro_by_collection: row(gm.scores, gm.queries, macroTemps(groups)),
  };
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
