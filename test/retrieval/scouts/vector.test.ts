import { agentViewer } from '../../../shared/governance/gate';
import { vectorScout } from '../../../shared/retrieval/scouts/vector';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

/**
 * Cosine to the query vector, min-max normalised over the notes the viewer may see: the closest scores 1,
 * the farthest 0. The twin's embedder maps every query to the x axis.
 */
const embed = (): number[] => [1, 0, 0];
const corpus = new MemoryCorpus(
  [
    { id: 'close', vector: [0.9, 0.1, 0] },
    { id: 'middle', vector: [0.5, 0.5, 0] },
    { id: 'far', vector: [0, 0, 1] },
    { id: 'no-vector' },
    { id: 'hidden-twin', vector: [1, 0, 0], access_scope: 'user_private' },
  ],
  { embed },
);

const run = (o: Parameters<typeof twinScoutInput>[1] = {}) => vectorScout.run(twinScoutInput(corpus, { text: 'anything', viewer: agentViewer('alice'), ...o }));

test('closest first, min-max normalised: best 1, worst 0; a note without a vector is absent', async () => {
  const hits = await run();
  expect(hits.map((h) => h.id)).toEqual(['close', 'middle', 'far']);
  expect(hits[0].score).toBe(1);
  expect(hits[2].score).toBe(0);
  expect(hits[1].score).toBeGreaterThan(0);
  expect(hits[1].score).toBeLessThan(1);
  expect(hits[0].reasons[0]).toMatch(/^embedding similarity 1\.00/);
});

test('a note the viewer may not see is not returned, even when it is the exact direction of the query', async () => {
  expect((await run()).map((h) => h.id)).not.toContain('hidden-twin');
  // the person sees it, and it is then the best match
  expect((await run({ viewer: undefined }))[0].id).toBe('hidden-twin');
});

test('the limit is honoured and an empty query proposes nothing', async () => {
  expect(await run({ limit: 2 })).toHaveLength(2);
  expect(await run({ text: '' })).toEqual([]);
});
