/**
 * Stage 2 of retrieve(): terrace 0 and the re-rank. Wave 1 scouts run on the query, the lexical and vector
 * sides complete each other's evidence, wave 2 runs on wave 1's seeds, then every candidate is re-ranked.
 */
import { SCOUT_LIMIT, SEED_COUNT } from '../constants';
import { mergeHits, rankByBase, type Candidate } from '../merge';
import { rerank, type IntentWeights, type Ranked } from '../rerank';
import { SCOUT_WEIGHTS } from '../scouts';
import { hashSeed, seededRandom } from '../rng';
import { round } from './result';
import type { QueryContrast } from '../temperature';
import type { Gate, ResolvedQuery, RetrievalCorpus, RetrievalResult, Scout, ScoutHit, ScoutName } from '../types';

/** What stays the same for every scan of one retrieval (the query's and its follow-ups'). */
export interface ScanSetup {
  corpus: RetrievalCorpus;
  /** The scouts switched on. */
  scouts: readonly Scout<ScoutName>[];
  without: ReadonlySet<ScoutName>;
  visible: Gate;
  weights: IntentWeights | null;
  now: number;
  seed: number;
  /** ms timer for the per-scout telemetry. */
  clockMs: () => number;
}

/** How wide terrace 0 casts its net: each scout's limit and wave 2's seeds (wider when the first scan runs hot). */
export interface ScanWidth {
  limit: number;
  seeds: number;
}

export const NORMAL_WIDTH: ScanWidth = { limit: SCOUT_LIMIT, seeds: SEED_COUNT };

export interface Scan {
  ranked: Ranked[];
  candidates: Map<string, Candidate>;
  telemetry: RetrievalResult['scouts'];
  /** The query's scores over the whole vault per side (temperature.ts); null when the corpus cannot say. */
  contrast: QueryContrast | null;
  width: ScanWidth;
}

export async function scan(query: ResolvedQuery, setup: ScanSetup, width: ScanWidth = NORMAL_WIDTH): Promise<Scan> {
  const { corpus, scouts, visible, now, seed, clockMs } = setup;
  const candidates = new Map<string, Candidate>();
  const telemetry: RetrievalResult['scouts'] = {};
  const runWave = async (wave: 1 | 2, seeds: ScoutHit[], pool: ScoutHit[]): Promise<void> => {
    const results = await Promise.all(
      scouts
        // A scout with no weight has no say in the base score: it proposes nothing either (eval grids switch one off so).
        .filter((s) => s.wave === wave && SCOUT_WEIGHTS[s.name] > 0)
        .map(async (s) => {
          const t = clockMs();
          const input = { query, corpus, visible, seeds, pool, limit: width.limit, now, random: seededRandom(seed ^ hashSeed(s.name)) };
          const hits = (await s.run(input)).filter((h) => visible(h.id)); // belt and braces: a scout bug must not leak
          return { s, hits, ms: clockMs() - t };
        }),
    );
    for (const { s, hits, ms } of results) {
      mergeHits(candidates, s.name, hits);
      telemetry[s.name] = { hits: hits.length, ms: round(ms) };
    }
    for (const s of scouts) if (s.wave === wave && !(SCOUT_WEIGHTS[s.name] > 0)) telemetry[s.name] = { hits: 0, ms: 0 };
  };
  await runWave(1, [], []);
  await completeRelevance(query, candidates, corpus, visible, setup.without);
  const pool = rankByBase(candidates.values());
  const seeds = pool.slice(0, width.seeds);
  await runWave(2, seeds, pool);
  const ranked = rerank([...candidates.values()], query, corpus, seeds.map((s) => s.id), setup.weights, now);
  const contrast = corpus.contrast && query.text !== '' ? await corpus.contrast(query.text, visible) : null;
  return { ranked, candidates, telemetry, contrast, width };
}

/**
 * The lexical and vector scouts each return their own top list; a note high on one side and just outside
 * the other's list would otherwise get 0 there and lose to weaker notes inside both lists.
 */
async function completeRelevance(
  q: ResolvedQuery,
  candidates: Map<string, Candidate>,
  corpus: RetrievalCorpus,
  visible: (id: string) => boolean,
  without: ReadonlySet<ScoutName>,
): Promise<void> {
  if (!corpus.complete || q.text === '') return;
  const sides = (['lexical', 'vector'] as const).filter((s) => !without.has(s));
  const ids = [...candidates.values()].filter((c) => sides.some((s) => c.scouts[s] === undefined)).map((c) => c.id);
  if (ids.length === 0) return;
  const scores = await corpus.complete(q.text, ids, visible);
  for (const side of sides) {
    const hits: ScoutHit[] = [];
    for (const id of ids) {
      const v = scores.get(id)?.[side] ?? 0;
      if (v > 0 && candidates.get(id)!.scouts[side] === undefined) {
        hits.push({ id, score: v, reasons: [side === 'lexical' ? `BM25 ${v.toFixed(2)} of the best match` : `embedding similarity ${v.toFixed(2)} (min-max over the vault)`] });
      }
    }
    mergeHits(candidates, side, hits);
  }
}
