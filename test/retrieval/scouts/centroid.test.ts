import { CENTROID_SEEDS } from '../../../shared/retrieval/constants';
import { centroidScout } from '../../../shared/retrieval/scouts/centroid';
import type { ScoutHit } from '../../../shared/retrieval/types';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

const hit = (id: string, score: number): ScoutHit => ({ id, score, reasons: [] });

/**
 * Pseudo-relevance feedback: the centroid of the best CENTROID_SEEDS seeds' vectors; every pool candidate
 * is scored by its cosine to it, min-max over the pool (the farthest scores 0 and is dropped).
 */
const corpus = new MemoryCorpus([
  { id: 's1', vector: [1, 0.2, 0] },
  { id: 's2', vector: [1, -0.2, 0] },
  { id: 's3', vector: [1, 0, 0.1] },
  { id: 's4-off-topic', vector: [-0.2, 0, 1] },
  { id: 'on-topic', vector: [1, 0, 0] },
  { id: 'halfway', vector: [1, 1, 0] },
  { id: 'off-topic', vector: [0.3, 1, 0] },
  { id: 'no-vector' },
]);

test(`candidates closest to the centroid of the best ${CENTROID_SEEDS} seeds first; the farthest dropped`, async () => {
  expect(CENTROID_SEEDS).toBe(3); // the fixture's fourth seed is the one that must not count
  const seeds = [hit('s1', 1), hit('s2', 0.9), hit('s3', 0.8), hit('s4-off-topic', 0.7)];
  const pool = [...seeds, hit('halfway', 0.5), hit('off-topic', 0.6), hit('on-topic', 0.2), hit('no-vector', 0.9)];
  const hits = await centroidScout.run(twinScoutInput(corpus, { seeds, pool }));
  const ids = hits.map((h) => h.id);
  expect(ids[0]).toBe('on-topic');
  expect(hits[0].score).toBe(1);
  expect(ids.indexOf('halfway')).toBeGreaterThan(ids.indexOf('s1'));
  expect(ids.indexOf('off-topic')).toBeGreaterThan(ids.indexOf('halfway'));
  expect(ids.at(-1)).toBe('off-topic');
  // the fourth seed is off topic: it did not pull the centroid, so it is the farthest and dropped
  expect(ids).not.toContain('s4-off-topic');
  expect(ids).not.toContain('no-vector');
  for (const h of hits) expect(h.score).toBeGreaterThan(0);
});

test('ranking does not follow the candidates\' own relevance, only closeness to the group', async () => {
  const hits = await centroidScout.run(twinScoutInput(corpus, { seeds: [hit('s1', 1)], pool: [hit('off-topic', 1), hit('halfway', 0.1), hit('on-topic', 0.01)] }));
  expect(hits.map((h) => h.id)).toEqual(['on-topic', 'halfway']);
});

test('no seed vectors or an empty pool: nothing', async () => {
  expect(await centroidScout.run(twinScoutInput(corpus, { seeds: [hit('no-vector', 1)], pool: [hit('on-topic', 1)] }))).toEqual([]);
  expect(await centroidScout.run(twinScoutInput(corpus, { seeds: [hit('s1', 1)], pool: [] }))).toEqual([]);
});
