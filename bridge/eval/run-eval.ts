/**
 * `lithos eval <dataset-dir>... --mode lexical|vector|hybrid [--json]`: each BEIR dataset becomes a
 * temporary vault, is indexed headless with the engine, and every judged query is searched at k=10.
 */
import { writeFailure } from '../log';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asLithosError, LithosError } from '../../shared/errors';
import { readCorpus, readQrels, readQueries, resolveDatasets, type DatasetRef } from './beir';
import { corpusIdOf, writeCorpusVault } from './corpus-vault';
import { formatEvalTable, toEvalJson, type DatasetResult } from './eval-report';
import { evalClock, openHeadlessEngine } from './headless-engine';
import { evalEmbedders, type EvalSpace } from './eval-spaces';
import type { VaultSpaceOptions } from '../../shared/index/embedders/vault-space';
import { hasRelevant, ScoreAccumulator, scoreQuery } from './metrics';
import { SCOUT_NAMES, type ScoutName } from '../../shared/retrieval/scouts';
import type { MemoryEngine } from '../../shared/engine';
import { formatCvTable, readCvFiles, runFeedbackCv, toCvJson } from './feedback-cv';
import { evaluateWithFeedback, formatFeedbackTable, toFeedbackJson, type FeedbackSplitRun } from './feedback-split';

export type EvalMode = 'lexical' | 'vector' | 'hybrid' | 'pts';
export const EVAL_MODES: readonly EvalMode[] = ['lexical', 'vector', 'hybrid', 'pts'];

export interface EvalArgs {
  datasets: string[];
  mode: EvalMode;
  /** pts only: scouts switched off (ablations). */
  without?: ScoutName[];
  json: boolean;
  /** pts only: share of each dataset's judged queries (in file order) that give feedback first (feedback-split.ts). */
  feedbackSplit?: number;
  /** the embedding spaces searched (eval-spaces.ts); the engine's default when absent */
  space?: EvalSpace;
  /** With feedbackSplit: grid files of constants to cross-validate the gain over, or earlier --cv --json outputs to reuse (feedback-cv.ts). */
  cv?: string[];
  /** Progress lines of a long run (--cv); the CLI sends them to stderr. */
  progress?: (line: string) => void;
  out: (s: string) => void;
}

export interface DatasetRun extends DatasetResult {
  /** Notes the engine could not index (each one costs recall). */
  indexErrors: number;
}

const K = 10;

/** Top-k paths for one query: a search, or a full PTS retrieval with learning and receipts off. */
async function rank(engine: MemoryEngine, text: string, mode: EvalMode, without: ScoutName[], temps: number[]): Promise<{ id: string; path: string }[]> {
  if (mode !== 'pts') return engine.services.search.search(text, { k: K, mode });
  const r = await engine.services.retrieval.retrieve({ query_text: text, max_context_nodes: K }, { record: false, jitter: false, seed: 1, without });
  temps.push(r.temperature);
  return r.nodes;
}

/** `vaultOptions`: the vault space's constants, for tuning them by cross-validation (eval-spaces.ts). */
export async function evaluateDataset(ref: DatasetRef, mode: EvalMode, without: ScoutName[] = [], space: EvalSpace = 'hash', vaultOptions?: VaultSpaceOptions): Promise<DatasetRun> {
  const started = performance.now();
  const root = await mkdtemp(join(tmpdir(), 'lithos-eval-'));
  try {
    const map = await writeCorpusVault(readCorpus(ref.dir), root, ref.name);
    const qrels = await readQrels(ref.dir);
    const engine = await openHeadlessEngine(root, { clock: evalClock, embedders: await evalEmbedders(space, root, vaultOptions) });
    try {
      const report = await engine.reconcile();
      await engine.settle();
      const acc = new ScoreAccumulator();
      const temps: number[] = [];
      for await (const q of readQueries(ref.dir)) {
        const judged = qrels.get(q._id);
        // Unjudged queries are skipped before searching: they cannot change any figure.
        if (!hasRelevant(judged)) {
          acc.add(null);
          continue;
        }
        const text = q.text.trim();
        const hits = text === '' ? [] : await rank(engine, text, mode, without, temps);
        // A hit outside the corpus map (should not happen) still occupies its rank as non-relevant.
        const ranked = hits.map((h) => corpusIdOf(map, h) ?? `\u0000${h.path}`);
        acc.add(scoreQuery(ranked, judged, K));
      }
      return {
        name: ref.name,
        scores: acc.mean(),
        queries: acc.count,
        skipped: acc.skipped,
        docs: map.docs,
        seconds: (performance.now() - started) / 1000,
        indexErrors: report.errors.length,
        temperatures: mode === 'pts' ? temps : undefined,
      };
    } finally {
      await engine.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export async function runEval(args: EvalArgs): Promise<number> {
  try {
    if (!EVAL_MODES.includes(args.mode)) {
      throw new LithosError('invalid_argument', `--mode must be one of ${EVAL_MODES.join(', ')}.`, { mode: args.mode });
    }
    const without = args.without ?? [];
    for (const w of without) {
      if (!SCOUT_NAMES.includes(w)) throw new LithosError('invalid_argument', `--without must name a scout: ${SCOUT_NAMES.join(', ')} (got "${w}").`);
    }
    if (without.length > 0 && args.mode !== 'pts') throw new LithosError('invalid_argument', '--without applies to --mode pts only.');
    if (args.cv?.length && args.feedbackSplit === undefined) throw new LithosError('invalid_argument', '--cv cross-validates the feedback gain: give --feedback-split too.');
    if (args.datasets.length === 0) throw new LithosError('invalid_argument', 'Give at least one dataset folder.');
    const refs = await resolveDatasets(args.datasets);
    if (args.feedbackSplit !== undefined) {
      const split = args.feedbackSplit;
      if (!(split > 0 && split < 1)) throw new LithosError('invalid_argument', `--feedback-split must be a number between 0 and 1, exclusive (got ${String(split)}).`);
      if ((args.space ?? 'hash') !== 'hash') throw new LithosError('invalid_argument', '--feedback-split runs with the default space only (no --space).');
      if (args.mode !== 'pts' || without.length > 0) throw new LithosError('invalid_argument', '--feedback-split applies to --mode pts only (without --without).');
      if (args.cv?.length) {
        const { grid, done } = await readCvFiles(args.cv);
        const report = await runFeedbackCv(refs, split, grid, args.progress, done);
        args.out(args.json ? JSON.stringify(toCvJson(report, split)) : formatCvTable(report, split));
        return 0;
      }
      const runs: FeedbackSplitRun[] = [];
      for (const ref of refs) runs.push(await evaluateWithFeedback(ref, split));
      args.out(args.json ? JSON.stringify(toFeedbackJson(runs, split)) : formatFeedbackTable(runs, split));
      for (const r of runs) if (r.indexErrors > 0 && !args.json) args.out(`warning: ${r.name}: ${r.indexErrors} notes failed to index`);
      return 0;
    }
    const results: DatasetRun[] = [];
    for (const ref of refs) results.push(await evaluateDataset(ref, args.mode, without, args.space));
    if (args.json) {
      args.out(JSON.stringify(toEvalJson(results)));
    } else {
      args.out(formatEvalTable(results, without.length ? `${args.mode} without ${without.join(', ')}` : args.mode));
      for (const r of results) {
        if (r.indexErrors > 0) args.out(`warning: ${r.name}: ${r.indexErrors} notes failed to index`);
      }
    }
    return 0;
  } catch (err) {
    const e = asLithosError(err);
    if (process.env.LITHOS_DEBUG) process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    // Text mode fails as every other command does: one line on stderr. --json keeps the error on stdout, machine-readable.
    if (args.json) args.out(JSON.stringify({ error: e.toJSON() }));
    else writeFailure(e);
    return e.code === 'invalid_argument' || e.code === 'not_found' ? 2 : 1;
  }
}
