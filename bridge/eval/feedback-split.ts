/**
 * `lithos eval … --mode pts --feedback-split F`: does feedback make later retrievals better? Per dataset,
 * the judged queries in file order are split: the first ⌊F·n⌋ are run by a simulated agent that cites the
 * relevant notes (qrels) among what it got and ignores the rest, through LearningService.feedback; the remaining
 * queries are scored before (baseline: the fresh index, nothing learned) and after that feedback.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryEngine } from '../../shared/engine';
import { LEARNING_FILE } from '../../shared/learning/learning-store';
import type { LearningOverrides } from '../../shared/learning/tunables';
import { readCorpus, readQrels, readQueries, type BeirQuery, type DatasetRef } from './beir';
import { corpusIdOf, writeCorpusVault, type CorpusMap } from './corpus-vault';
import type { DatasetResult } from './eval-report';
import { evalClock, openHeadlessEngine } from './headless-engine';
import { BOOTSTRAP, gainInterval, type PairedScores } from './bootstrap';
import { formatRates, formatReach, historyRates, reachOf, sumRates, sumReach, type HistoryRates, type Reach } from './feedback-history';
import { hasRelevant, ScoreAccumulator, scoreQuery, type Judgements, type QueryScores } from './metrics';

const K = 10;
/** The simulated agent's id on its receipts and feedback. */
export const EVAL_AGENT = 'eval-agent';

export interface FeedbackSplitRun extends DatasetResult {
  indexErrors: number;
  /** The same held-out queries on the fresh index, before any feedback. */
  baseline: QueryScores;
  /** Queries that gave feedback. */
  trained: number;
  /** Per held-out query nDCG@10, before and after (for the bootstrap interval). */
  paired: PairedScores;
  /** The notes the baseline returned, by the history feedback gave them (feedback-history.ts). */
  history: HistoryRates;
  /** How many of the held-out answers feedback could have taught (feedback-history.ts). */
  reach: Reach;
}

interface Judged {
  text: string;
  judged: Judgements;
}

/** The held-out queries' baseline scores, kept by the caller across runs whose baseline cannot differ (feedback-cv.ts). */
export type BaselineCache = Map<string, Scored>;

interface Scored {
  scores: QueryScores;
  count: number;
  /** nDCG@10 of each scored query, in order (for the bootstrap interval). */
  ndcgs: number[];
  /** Each scored query's returned notes (node ids) with whether the qrels call them relevant. */
  returned: { id: string; relevant: boolean }[][];
}

async function score(engine: MemoryEngine, map: CorpusMap, queries: readonly Judged[]): Promise<Scored> {
  const acc = new ScoreAccumulator();
  const ndcgs: number[] = [];
  const returned: Scored['returned'] = [];
  for (const q of queries) {
    const r = await engine.services.retrieval.retrieve({ query_text: q.text, max_context_nodes: K }, { record: false, jitter: false, seed: 1 });
    const s = scoreQuery(r.nodes.map((h) => corpusIdOf(map, h) ?? `\u0000${h.path}`), q.judged, K);
    acc.add(s);
    if (!s) continue;
    ndcgs.push(s.ndcg);
    returned.push(r.nodes.map((h) => ({ id: h.id, relevant: (q.judged.get(corpusIdOf(map, h) ?? '') ?? 0) > 0 })));
  }
  return { scores: acc.mean(), count: acc.count, ndcgs, returned };
}

/** The simulated agent: retrieve (recorded, so there is a receipt), cite what the qrels call relevant, ignore the rest. */
async function train(engine: MemoryEngine, map: CorpusMap, queries: readonly Judged[]): Promise<void> {
  for (const q of queries) {
    const r = await engine.services.retrieval.retrieve({ query_text: q.text, max_context_nodes: K, agent_id: EVAL_AGENT }, { jitter: false, seed: 1 });
    if (!r.receipt_id) continue;
    const cited = r.nodes.filter((n) => (q.judged.get(corpusIdOf(map, n) ?? '') ?? 0) > 0).map((n) => n.id);
    await engine.services.learning.feedback({ receipt_id: r.receipt_id, cited, agent: EVAL_AGENT });
  }
}

/**
 * `learning`: overrides of the vault tunables for this run, written into the eval vault's learning.json as a
 * person would set them (the cross-validation harness, feedback-cv.ts, varies them).
 */
export async function evaluateWithFeedback(
  ref: DatasetRef,
  split: number,
  learning: LearningOverrides = {},
  /** A baseline computed before under the same retrieval constants (key), reused instead of scored again. */
  reuse?: { cache: BaselineCache; key: string },
): Promise<FeedbackSplitRun> {
  const started = performance.now();
  const root = await mkdtemp(join(tmpdir(), 'lithos-eval-'));
  try {
    const map = await writeCorpusVault(readCorpus(ref.dir), root, ref.name);
    if (Object.keys(learning).length > 0) {
      await mkdir(join(root, '.lithos'), { recursive: true });
      await writeFile(join(root, '.lithos', LEARNING_FILE), JSON.stringify({ version: 1, ...learning }));
    }
    const qrels = await readQrels(ref.dir);
    const judged: Judged[] = [];
    let skipped = 0;
    for await (const q of readQueries(ref.dir) as AsyncIterable<BeirQuery>) {
      const j = qrels.get(q._id);
      if (!hasRelevant(j) || q.text.trim() === '') skipped++;
      else judged.push({ text: q.text.trim(), judged: j! });
    }
    const cut = Math.floor(judged.length * split);
    const heldOut = judged.slice(cut);
    const engine = await openHeadlessEngine(root, { clock: evalClock });
    try {
      const report = await engine.reconcile();
      await engine.settle();
      // Baseline first, unrecorded: the index exactly as fresh, nothing learned yet.
      const cacheKey = reuse && JSON.stringify([ref.name, ref.dir, split, reuse.key]);
      const before = (cacheKey && reuse.cache.get(cacheKey)) || (await score(engine, map, heldOut));
      if (cacheKey) reuse.cache.set(cacheKey, before);
      await train(engine, map, judged.slice(0, cut));
      const after = await score(engine, map, heldOut);
      const noteIdOf = new Map([...map.byNoteId].map(([noteId, corpusId]) => [corpusId, noteId]));
      const relevantIds = (q: Judged): string[] => [...q.judged].filter(([, g]) => g > 0).map(([id]) => id);
      const reach = reachOf(heldOut.map(relevantIds), new Set(judged.slice(0, cut).flatMap(relevantIds)), (id) => {
        const noteId = noteIdOf.get(id);
        return noteId !== undefined && engine.services.learning.memory.stats.get(noteId).use_count > 0;
      });
      return {
        reach,
        name: ref.name,
        paired: { before: before.ndcgs, after: after.ndcgs },
        history: historyRates(before.returned, (id) => engine.services.learning.memory.stats.get(id)),
        scores: after.scores,
        baseline: before.scores,
        queries: after.count,
        trained: cut,
        skipped,
        docs: map.docs,
        seconds: (performance.now() - started) / 1000,
        indexErrors: report.errors.length,
      };
    } finally {
      await engine.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export interface FeedbackRow {
  'ndcg@10': number;
  'baseline_ndcg@10': number;
  /** ndcg / baseline − 1 (0 when the baseline is 0). */
  gain: number;
  /** 95% paired-bootstrap interval of the gain over the held-out queries (bootstrap.ts). */
  gain_ci95: [number, number];
  /** The baseline's returned notes by the history feedback gave them, and how many are relevant. */
  history: HistoryRates;
  /** The held-out queries' relevant notes: how many were relevant to a training query, how many feedback saw used. */
  reach: Reach;
  'recall@10': number;
  'baseline_recall@10': number;
  'mrr@10': number;
  'baseline_mrr@10': number;
  queries: number;
  trained: number;
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const gainOf = (after: number, before: number): number => (before > 0 ? after / before - 1 : 0);
const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

function feedbackRow(after: QueryScores, before: QueryScores, queries: number, trained: number, paired: readonly PairedScores[], history: HistoryRates, reach: Reach): FeedbackRow {
  const [low, high] = gainInterval(paired);
  return {
    'ndcg@10': round4(after.ndcg),
    'baseline_ndcg@10': round4(before.ndcg),
    gain: round4(gainOf(after.ndcg, before.ndcg)),
    gain_ci95: [round4(low), round4(high)],
    history,
    reach,
    'recall@10': round4(after.recall),
    'baseline_recall@10': round4(before.recall),
    'mrr@10': round4(after.mrr),
    'baseline_mrr@10': round4(before.mrr),
    queries,
    trained,
  };
}

/** Unweighted over datasets with held-out queries; the macro gain is macro ndcg / macro baseline − 1. */
function macroRow(runs: readonly FeedbackSplitRun[]): FeedbackRow {
  const r = runs.filter((x) => x.queries > 0);
  const m = (f: (x: FeedbackSplitRun) => number): number => mean(r.map(f));
  return feedbackRow(
    { ndcg: m((x) => x.scores.ndcg), recall: m((x) => x.scores.recall), mrr: m((x) => x.scores.mrr) },
    { ndcg: m((x) => x.baseline.ndcg), recall: m((x) => x.baseline.recall), mrr: m((x) => x.baseline.mrr) },
    r.reduce((s, x) => s + x.queries, 0),
    r.reduce((s, x) => s + x.trained, 0),
    r.map((x) => x.paired),
    sumRates(r.map((x) => x.history)),
    sumReach(r.map((x) => x.reach)),
  );
}

export function toFeedbackJson(runs: readonly FeedbackSplitRun[], split: number): { feedback_split: number; datasets: Record<string, FeedbackRow>; macro: FeedbackRow } {
  const datasets: Record<string, FeedbackRow> = {};
  for (const r of runs) datasets[r.name] = feedbackRow(r.scores, r.baseline, r.queries, r.trained, [r.paired], r.history, r.reach);
  return { feedback_split: split, datasets, macro: macroRow(runs) };
}

export function formatFeedbackTable(runs: readonly FeedbackSplitRun[], split: number): string {
  const header = ['dataset', 'ndcg@10', 'baseline', 'gain', '95% CI', 'recall@10', 'baseline', 'trained', 'held-out', 'seconds'];
  const pct = (g: number): string => `${g >= 0 ? '+' : ''}${(g * 100).toFixed(1)}%`;
  const line = (name: string, r: FeedbackRow, seconds: number): string[] => [
    name, r['ndcg@10'].toFixed(4), r['baseline_ndcg@10'].toFixed(4), pct(r.gain), `${pct(r.gain_ci95[0])}…${pct(r.gain_ci95[1])}`, r['recall@10'].toFixed(4), r['baseline_recall@10'].toFixed(4),
    String(r.trained), String(r.queries), seconds.toFixed(1),
  ];
  const json = toFeedbackJson(runs, split);
  const body = runs.map((r) => line(r.name, json.datasets[r.name], r.seconds));
  const macro = line('macro', json.macro, runs.reduce((s, r) => s + r.seconds, 0));
  const rows = [header, ...body, macro];
  const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const fmt = (r: string[]): string => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [
    `mode: pts, feedback split ${split} (first queries give feedback, the rest are scored before/after)`,
    fmt(header), rule, ...body.map(fmt), rule, fmt(macro),
    `95% CI: paired bootstrap over the held-out queries (${BOOTSTRAP.resamples} resamples).`,
    `The baseline's top ${K} for the held-out queries, share relevant by what feedback did with each note: ${formatRates(json.macro.history)}`,
    `What feedback could teach — the held-out queries' relevant notes: ${formatReach(json.macro.reach)}`,
  ].join('\n');
}
