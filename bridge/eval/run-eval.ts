/**
 * `lithos eval <dataset-dir>... --mode lexical|vector|hybrid [--json]`: each BEIR dataset becomes a
 * temporary vault, is indexed headless with the engine, and every judged query is searched at k=10.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asLithosError, LithosError } from '../../shared/errors';
import { readCorpus, readQrels, readQueries, resolveDatasets, type DatasetRef } from './beir';
import { corpusIdOf, writeCorpusVault } from './corpus-vault';
import { formatEvalTable, toEvalJson, type DatasetResult } from './eval-report';
import { openHeadlessEngine } from './headless-engine';
import { hasRelevant, ScoreAccumulator, scoreQuery } from './metrics';

export type SearchMode = 'lexical' | 'vector' | 'hybrid';
export const SEARCH_MODES: readonly SearchMode[] = ['lexical', 'vector', 'hybrid'];

export interface EvalArgs {
  datasets: string[];
  mode: SearchMode;
  json: boolean;
  out: (s: string) => void;
}

export interface DatasetRun extends DatasetResult {
  /** Notes the engine could not index (each one costs recall). */
  indexErrors: number;
}

const K = 10;

export async function evaluateDataset(ref: DatasetRef, mode: SearchMode): Promise<DatasetRun> {
  const started = performance.now();
  const root = await mkdtemp(join(tmpdir(), 'lithos-eval-'));
  try {
    const map = await writeCorpusVault(readCorpus(ref.dir), root, ref.name);
    const qrels = await readQrels(ref.dir);
    const engine = await openHeadlessEngine(root);
    try {
      const report = await engine.reconcile();
      await engine.settle();
      const acc = new ScoreAccumulator();
      for await (const q of readQueries(ref.dir)) {
        const judged = qrels.get(q._id);
        // Unjudged queries are skipped before searching: they cannot change any figure.
        if (!hasRelevant(judged)) {
          acc.add(null);
          continue;
        }
        const text = q.text.trim();
        const hits = text === '' ? [] : await engine.search(text, { k: K, mode });
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
    if (!SEARCH_MODES.includes(args.mode)) {
      throw new LithosError('invalid_argument', `--mode must be one of ${SEARCH_MODES.join(', ')}.`, { mode: args.mode });
    }
    if (args.datasets.length === 0) throw new LithosError('invalid_argument', 'Give at least one dataset folder.');
    const refs = await resolveDatasets(args.datasets);
    const results: DatasetRun[] = [];
    for (const ref of refs) results.push(await evaluateDataset(ref, args.mode));
    if (args.json) {
      args.out(JSON.stringify(toEvalJson(results)));
    } else {
      args.out(formatEvalTable(results, args.mode));
      for (const r of results) {
        if (r.indexErrors > 0) args.out(`warning: ${r.name}: ${r.indexErrors} notes failed to index`);
      }
    }
    return 0;
  } catch (err) {
    const e = asLithosError(err);
    args.out(args.json ? JSON.stringify({ error: e.toJSON() }) : `error: ${e.message}`);
    return e.code === 'invalid_argument' || e.code === 'not_found' ? 2 : 1;
  }
}
