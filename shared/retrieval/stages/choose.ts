/**
 * Stage 3 of retrieve(): terrace 1's choice. The coherence of the ranking gives the temperature; MMR picks
 * the k nodes (wider and with exploration when hot); a refuted or superseded note goes below its winner.
 */
import { belowWinners } from '../conflict-ranking';
import { HOT, SELECTION } from '../constants';
import type { Ranked } from '../rerank';
import { select } from '../select';
import { coherenceOf, type Coherence } from '../temperature';
import type { ResolvedQuery, RetrievalCorpus } from '../types';

export interface Choice {
  final: Ranked[];
  coh: Coherence;
  hot: boolean;
}

export function choose(ranked: Ranked[], q: ResolvedQuery, corpus: RetrievalCorpus): Choice {
  const coh = coherenceOf(ranked, corpus);
  const hot = coh.temperature > HOT;
  const final = select(ranked, corpus, {
    k: q.k,
    lambda: hot ? SELECTION.mmr_lambda_hot : SELECTION.mmr_lambda,
    explorationSlots: q.intent === 'explore' ? SELECTION.exploration_slots_explore : hot ? SELECTION.exploration_slots_hot : 0,
    explorationBonus: hot || q.intent === 'explore' ? SELECTION.exploration_bonus_hot : 0,
  });
  // A note refuted or superseded by another returned note ranks right below it (conflict-ranking.ts).
  return { final: belowWinners(final, (id) => corpus.edges(id), (id) => corpus.note(id)?.title ?? id), coh, hot };
}
