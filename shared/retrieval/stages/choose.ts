/**
 * Stage 3 of retrieve(): terrace 1's choice. The coherence of the first scan gives the temperature; when it
 * is hot, retrieve() scans again wider (scan.ts) and MMR picks the k nodes from that wider ranking with
 * more diversity and exploration slots; a refuted or superseded note goes below its winner.
 */
import { belowWinners } from '../conflict-ranking';
import { HOT, SELECTION, WIDE_SCAN } from '../constants';
import type { Ranked } from '../rerank';
import { select } from '../select';
import { coherenceOf, type Coherence, type QueryContrast } from '../temperature';
import type { HotPath, ResolvedQuery, RetrievalCorpus } from '../types';
import type { ScanWidth } from './scan';

export interface Choice {
  final: Ranked[];
  coh: Coherence;
  hot: boolean;
  hotPath: HotPath;
}

/** The temperature of a scan, and whether it is hot (above HOT). */
export function temperatureOf(ranked: readonly Ranked[], corpus: RetrievalCorpus, contrast: QueryContrast | null): { coh: Coherence; hot: boolean } {
  const coh = coherenceOf(ranked, corpus, contrast);
  return { coh, hot: coh.temperature > HOT };
}

/** The wider net of a hot scan. */
export function widened(w: ScanWidth): ScanWidth {
  return { limit: w.limit * WIDE_SCAN.limit_factor, seeds: w.seeds * WIDE_SCAN.seed_factor };
}

/** MMR's λ at a temperature: less relevance, more diversity, as it rises (never plain ranking). */
export function mmrLambda(temperature: number): number {
  return SELECTION.mmr_lambda_cold + (SELECTION.mmr_lambda_hot - SELECTION.mmr_lambda_cold) * temperature;
}

/** Cosine above which notes repeat each other: SELECTION.redundant_sd background sd above random pairs (0 without a background). */
export function redundancyThreshold(corpus: RetrievalCorpus): number {
  const bg = corpus.background?.();
  return bg ? Math.min(0.95, Math.max(0, bg.mean + SELECTION.redundant_sd * bg.sd)) : 0;
}

export function choose(ranked: Ranked[], q: ResolvedQuery, corpus: RetrievalCorpus, temp: { coh: Coherence; hot: boolean }, width: ScanWidth): Choice {
  const { coh, hot } = temp;
  const lambda = mmrLambda(coh.temperature);
  const explorationSlots = q.intent === 'explore' ? SELECTION.exploration_slots_explore : hot ? SELECTION.exploration_slots_hot : 0;
  const final = select(ranked, corpus, {
    k: q.k,
    lambda,
    explorationSlots,
    explorationBonus: hot || q.intent === 'explore' ? SELECTION.exploration_bonus_hot : 0,
    poolFactor: hot ? 2 * SELECTION.mmr_pool_factor : SELECTION.mmr_pool_factor,
    redundantAbove: redundancyThreshold(corpus),
  });
  const hotPath: HotPath = { wider_scan: hot, scout_limit: width.limit, seeds: width.seeds, mmr_lambda: lambda, exploration_slots: explorationSlots };
  // A note refuted or superseded by another returned note ranks right below it (conflict-ranking.ts).
  return { final: belowWinners(final, (id) => corpus.edges(id), (id) => corpus.note(id)?.title ?? id), coh, hot, hotPath };
}
