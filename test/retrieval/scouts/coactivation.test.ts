import { agentViewer } from '../../../shared/governance/gate';
import { coactivationScout } from '../../../shared/retrieval/scouts/coactivation';
import type { ScoutHit } from '../../../shared/retrieval/types';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

const seed = (id: string, score = 1): ScoutHit => ({ id, score, reasons: [] });

/** Nodes used together with the seeds before: more co-uses and stronger seeds rank higher; best = 1. */
const corpus = new MemoryCorpus(
  [{ id: 'seed', title: 'Seed' }, { id: 'seed2', title: 'Second seed' }, { id: 'often' }, { id: 'sometimes' }, { id: 'once' }, { id: 'never' }, { id: 'private', access_scope: 'user_private' }],
  {
    coactivation: [
      { a: 'seed', b: 'often', count: 20 },
      { a: 'sometimes', b: 'seed', count: 4 },
      { a: 'seed', b: 'once', count: 1 },
      { a: 'seed', b: 'seed2', count: 50 },
      { a: 'seed', b: 'private', count: 100 },
    ],
  },
);

test('ranked by co-use count with the seed (log-damped), seeds and gated notes left out', async () => {
  const hits = await coactivationScout.run(twinScoutInput(corpus, { seeds: [seed('seed'), seed('seed2', 0.5)], viewer: agentViewer('alice') }));
  expect(hits.map((h) => h.id)).toEqual(['often', 'sometimes', 'once']);
  expect(hits[0].score).toBe(1);
  expect(hits[0].reasons).toEqual(['used together with "Seed" 20×']);
  // log damping: 20 co-uses are not worth 20 single ones
  expect(hits[2].score).toBeGreaterThan(1 / 20);
});

test('the person sees the private co-used note, and it leads', async () => {
  const hits = await coactivationScout.run(twinScoutInput(corpus, { seeds: [seed('seed')] }));
  expect(hits[0].id).toBe('private');
});

test('the same count with a stronger seed ranks higher; counts with two seeds add up', async () => {
  const c = new MemoryCorpus([{ id: 's1' }, { id: 's2' }, { id: 'x' }, { id: 'y' }, { id: 'both' }], {
    coactivation: [
      { a: 's1', b: 'x', count: 3 },
      { a: 's2', b: 'y', count: 3 },
      { a: 's1', b: 'both', count: 2 },
      { a: 's2', b: 'both', count: 2 },
    ],
  });
  const hits = await coactivationScout.run(twinScoutInput(c, { seeds: [seed('s1', 1), seed('s2', 0.4)] }));
  expect(hits.map((h) => h.id)).toEqual(['both', 'x', 'y']);
});

test('no co-use recorded (cold start): nothing', async () => {
  expect(await coactivationScout.run(twinScoutInput(new MemoryCorpus([{ id: 'a' }, { id: 'b' }]), { seeds: [seed('a')] }))).toEqual([]);
});
