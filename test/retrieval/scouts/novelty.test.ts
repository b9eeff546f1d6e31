import { NOVELTY_PICKS, noveltyScout } from '../../../shared/retrieval/scouts/novelty';
import type { ScoutHit } from '../../../shared/retrieval/types';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

const hit = (id: string, score: number): ScoutHit => ({ id, score, reasons: [] });

/**
 * Exploration, novelty mode (MMR with a low λ): among wave-1 candidates that are not seeds, relevant notes
 * unlike the seeds come first. Seeds point along x.
 */
const corpus = new MemoryCorpus([
  { id: 'seed', vector: [1, 0, 0] },
  { id: 'near-dup', vector: [1, 0.05, 0] },
  { id: 'different', vector: [0, 1, 0] },
  { id: 'different-weak', vector: [0, 0, 1] },
  { id: 'half', vector: [1, 1, 0] },
  { id: 'no-vector' },
]);

const seeds = [hit('seed', 1)];

test('relevant and different first; a near-duplicate of the seeds last; seeds and vector-less notes absent', async () => {
  const pool = [hit('seed', 1), hit('near-dup', 0.9), hit('different', 0.8), hit('half', 0.8), hit('different-weak', 0.2), hit('no-vector', 0.9)];
  const hits = await noveltyScout.run(twinScoutInput(corpus, { seeds, pool }));
  expect(hits.map((h) => h.id)).toEqual(['different', 'different-weak', 'half', 'near-dup']);
  expect(hits[0].score).toBe(1);
  expect(hits[0].reasons[0]).toMatch(/^relevant \(0\.80\) yet unlike the top results \(max similarity 0\.00\)$/);
});

test('equally different: the more relevant first; equally relevant: the more different first', async () => {
  const a = await noveltyScout.run(twinScoutInput(corpus, { seeds, pool: [hit('different-weak', 0.3), hit('different', 0.6)] }));
  expect(a.map((h) => h.id)).toEqual(['different', 'different-weak']);
  const b = await noveltyScout.run(twinScoutInput(corpus, { seeds, pool: [hit('half', 0.5), hit('different', 0.5)] }));
  expect(b.map((h) => h.id)).toEqual(['different', 'half']);
});

test(`at most ${NOVELTY_PICKS} picks`, async () => {
  const many = new MemoryCorpus([{ id: 's', vector: [1, 0] }, ...Array.from({ length: 12 }, (_, i) => ({ id: `n${i}`, vector: [Math.cos(i / 8), Math.sin(i / 8)] }))]);
  const pool = Array.from({ length: 12 }, (_, i) => hit(`n${i}`, 0.5));
  expect(await noveltyScout.run(twinScoutInput(many, { seeds: [hit('s', 1)], pool }))).toHaveLength(NOVELTY_PICKS);
});

test('no seeds, or seeds without vectors: nothing', async () => {
  expect(await noveltyScout.run(twinScoutInput(corpus, { seeds: [], pool: [hit('different', 1)] }))).toEqual([]);
  expect(await noveltyScout.run(twinScoutInput(corpus, { seeds: [hit('no-vector', 1)], pool: [hit('different', 1)] }))).toEqual([]);
});
