/**
 * How sure is a feedback gain? A paired, stratified bootstrap: each resample draws every dataset's held-out
 * queries with replacement (the same draw for its before and after scores, so a query's own difficulty
 * cancels out), takes each dataset's means, then their unweighted mean as the macro does, and computes
 * gain = after / before − 1. The 2.5th and 97.5th percentiles of those gains are the 95% interval.
 * Seeded, so the interval repeats exactly from run to run.
 */
import { seededRandom } from '../../shared/retrieval/rng';
import { percentile } from '../bench/stats';

/** Per-query nDCG of one dataset's held-out queries, before and after feedback (same order). */
export interface PairedScores {
  before: readonly number[];
  after: readonly number[];
}

export const BOOTSTRAP = { resamples: 2000, seed: 20261125 } as const;

/**
 * 95% interval of the macro gain over `datasets` (one dataset: its own gain). Datasets without queries are
 * left out, as the macro leaves them out; [0, 0] when nothing is left or every baseline is 0.
 */
export function gainInterval(datasets: readonly PairedScores[], opts: { resamples?: number; seed?: number } = {}): [number, number] {
  const sets = datasets.filter((d) => d.before.length > 0);
  for (const d of sets) if (d.after.length !== d.before.length) throw new Error('paired scores differ in length');
  if (sets.length === 0) return [0, 0];
  const random = seededRandom(opts.seed ?? BOOTSTRAP.seed);
  const n = opts.resamples ?? BOOTSTRAP.resamples;
  const gains: number[] = [];
  for (let r = 0; r < n; r++) {
    let before = 0;
    let after = 0;
    for (const d of sets) {
      let b = 0;
      let a = 0;
      for (let i = 0; i < d.before.length; i++) {
        const j = Math.floor(random() * d.before.length);
        b += d.before[j];
        a += d.after[j];
      }
      before += b / d.before.length;
      after += a / d.before.length;
    }
    if (before > 0) gains.push(after / before - 1);
  }
  if (gains.length === 0) return [0, 0];
  return [percentile(gains, 2.5), percentile(gains, 97.5)];
}
