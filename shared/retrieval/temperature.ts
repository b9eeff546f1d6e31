/**
 * Coherence of the top candidates, and temperature = 1 − coherence. Every signal is measured against the
 * vault's own background (background.ts), not against fixed cosines or counts:
 * - narrowing: how far the query's known words narrow this vault down to its best lexical hit
 *   (Σ ln(N/df) / ln N over the words that note holds): words the vault never saw, or that every note
 *   holds, narrow nothing, and words scattered over different notes (a mixed query) narrow less;
 * - lexical: how far the best BM25 hit stands out of the query's scores over the vault, beyond what noise
 *   gives at that vault size;
 * - embedding: how much closer the top notes lie to each other than random note pairs of the same space;
 * - agreement: whether the lexical and vector sides agree on the best notes.
 * A question naming a note's topic is coherent (cold); a vague one, or words the vault does not know, is
 * not (hot). Weights and scales were fitted on dev queries against generic and nonsense ones (COHERENCE).
 */
import { COHERENCE } from './constants';
import { standOut, type Contrast } from './background';
import type { Ranked } from './rerank';
import { cosine } from './similarity';
import type { CoherenceSignals, RetrievalCorpus, ScoutName } from './types';

export type { CoherenceSignals } from './types';

const clamp01 = (x: number): number => (x > 1 ? 1 : x > 0 ? x : 0);

export interface Coherence {
  coherence: number;
  temperature: number;
  signals: CoherenceSignals;
}

export const NO_SIGNALS: CoherenceSignals = { narrowing: 0, lexical: 0, embedding: 0, agreement: 0 };

/** The query against the whole vault (RetrievalCorpus.contrast), when the corpus offers it. */
export type QueryContrast = { lexical: Contrast | null; vector: Contrast | null; narrowing: number };

export function coherenceOf(ranked: readonly Ranked[], corpus: RetrievalCorpus, contrast: QueryContrast | null): Coherence {
  const top = ranked.slice(0, COHERENCE.top);
  if (top.length < 2) {
    // One note or none: nothing to disagree with, but nothing to confirm either.
    return { coherence: 0.5, temperature: 0.5, signals: { ...NO_SIGNALS } };
  }
  const signals: CoherenceSignals = {
    narrowing: clamp01((contrast?.narrowing ?? 0) / COHERENCE.narrowing_full),
    lexical: clamp01(standOut(contrast?.lexical ?? null) / COHERENCE.standout_sd),
    embedding: clamp01(embeddingZ(top, corpus) / COHERENCE.embedding_sd),
    agreement: sideAgreement(ranked, top.length),
  };
  const w = COHERENCE.weights;
  let raw = 0;
  let total = 0;
  for (const k of Object.keys(w) as (keyof CoherenceSignals)[]) {
    raw += w[k] * signals[k];
    total += w[k];
  }
  // A logistic stretch around the fitted midpoint, so that temperatures use the whole range.
  const coherence = clamp01(1 / (1 + Math.exp(-(raw / total - COHERENCE.center) / COHERENCE.width)));
  return { coherence, temperature: 1 - coherence, signals };
}

/** Mean pairwise cosine of the top notes, in standard deviations above random note pairs; 0 without a background. */
function embeddingZ(top: readonly Ranked[], corpus: RetrievalCorpus): number {
  const bg = corpus.background?.() ?? null;
  if (!bg || !(bg.sd > 0)) return 0;
  const vecs = top.map((r) => corpus.noteVector(r.id)).filter((v): v is Float32Array => v !== null);
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < vecs.length; i++) {
    for (let j = i + 1; j < vecs.length; j++) {
      sum += cosine(vecs[i], vecs[j]);
      pairs++;
    }
  }
  return pairs > 0 ? (sum / pairs - bg.mean) / bg.sd : 0;
}

/**
 * Do the lexical and the vector side agree on what the best notes are? Share of the `n` best by BM25 that
 * are also among the `n` best by embedding similarity (over every candidate, not only the final top).
 */
function sideAgreement(ranked: readonly Ranked[], n: number): number {
  const best = (side: ScoutName): Set<string> =>
    new Set(
      ranked
        .filter((r) => (r.terms.scouts[side] ?? 0) > 0)
        .sort((a, b) => (b.terms.scouts[side] ?? 0) - (a.terms.scouts[side] ?? 0) || (a.id < b.id ? -1 : 1))
        .slice(0, n)
        .map((r) => r.id),
    );
  const lex = best('lexical');
  const vec = best('vector');
  if (lex.size === 0 || vec.size === 0) return 0;
  let both = 0;
  for (const id of lex) if (vec.has(id)) both++;
  return both / Math.min(n, Math.max(lex.size, vec.size));
}
