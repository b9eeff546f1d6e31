/**
 * Coherence of the top candidates, and temperature = 1 − coherence. Edge strength alone is constant on a
 * vault without learned edges (a peer measured 0.5 on all 1,946 queries), so it is one signal of five:
 * embedding agreement among the top notes, whether different scouts agree on them, how clearly the best
 * stand out, links/edges among them, and shared tags/entities.
 */
import { COHERENCE } from './constants';
import type { Ranked } from './rerank';
import { cosine } from './similarity';
import type { RetrievalCorpus, ScoutName } from './types';

const clamp01 = (x: number): number => (x > 1 ? 1 : x > 0 ? x : 0);

export interface Coherence {
  coherence: number;
  temperature: number;
  signals: { embedding: number; agreement: number; concentration: number; edges: number; shared: number };
}

export function coherenceOf(ranked: readonly Ranked[], corpus: RetrievalCorpus): Coherence {
  const top = ranked.slice(0, COHERENCE.top);
  if (top.length < 2) {
    // One note or none: nothing to disagree with, but nothing to confirm either.
    const signals = { embedding: 0, agreement: 0, concentration: 0, edges: 0, shared: 0 };
    return { coherence: 0.5, temperature: 0.5, signals };
  }
  const vecs = top.map((r) => corpus.noteVector(r.id));
  const notes = top.map((r) => corpus.note(r.id));
  let simSum = 0;
  let simPairs = 0;
  let linked = 0;
  let shared = 0;
  let pairs = 0;
  const links = top.map((r) => new Set([...corpus.linksOut(r.id), ...corpus.linksIn(r.id), ...corpus.edges(r.id).map((e) => (e.from_id === r.id ? e.to_id : e.from_id))]));
  const keys = notes.map((n) => new Set([...(n?.tags ?? []), ...(n?.entities ?? [])].map((t) => t.toLowerCase())));
  for (let i = 0; i < top.length; i++) {
    for (let j = i + 1; j < top.length; j++) {
      pairs++;
      const a = vecs[i];
      const b = vecs[j];
      if (a && b) {
        simSum += cosine(a, b);
        simPairs++;
      }
      if (links[i].has(top[j].id) || links[j].has(top[i].id)) linked++;
      for (const k of keys[i]) {
        if (keys[j].has(k)) {
          shared++;
          break;
        }
      }
    }
  }
  const embedding = simPairs > 0 ? clamp01((simSum / simPairs - COHERENCE.emb_low) / (COHERENCE.emb_high - COHERENCE.emb_low)) : 0;
  const agreement = sideAgreement(ranked, top.length);
  // Clear winners: how far the best three stand above the rest of the top, relative to the best.
  const scores = top.map((r) => r.terms.base);
  const head = mean(scores.slice(0, 3));
  const tail = mean(scores.slice(3));
  const concentration = head > 0 && scores.length > 3 ? clamp01((2 * (head - tail)) / head) : 0;
  const signals = { embedding, agreement, concentration, edges: linked / pairs, shared: shared / pairs };
  const w = COHERENCE.weights;
  const raw =
    (w.embedding * signals.embedding + w.agreement * signals.agreement + w.concentration * signals.concentration + w.edges * signals.edges + w.shared * signals.shared) /
    (w.embedding + w.agreement + w.concentration + w.edges + w.shared);
  // Calibration (tuned on dev data): a logistic stretch around the typical raw value, so that
  // temperatures use the whole range instead of crowding around one value.
  const coherence = clamp01(1 / (1 + Math.exp(-(raw - COHERENCE.center) / COHERENCE.width)));
  return { coherence, temperature: 1 - coherence, signals };
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

function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0;
}
