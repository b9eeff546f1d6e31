import { agentViewer } from '../../../shared/governance/gate';
import { HOP_DECAY, WIKILINK_WEIGHT } from '../../../shared/retrieval/constants';
import { graphScout } from '../../../shared/retrieval/scouts/graph';
import type { ScoutHit } from '../../../shared/retrieval/types';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

const seed = (id: string, score = 1): ScoutHit => ({ id, score, reasons: [] });
const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Neighbours of the seeds over wiki-links (both directions) and typed weighted edges, 1–2 hops: a path is
 * worth seed score × edge weight (× HOP_DECAY × the second weight on hop 2); paths add up; best = 1.
 * `contradicts` edges belong to the contradictions scout, seeds are not proposed again.
 */
const corpus = new MemoryCorpus(
  [
    { id: 'seed', title: 'Seed', links: ['out'] },
    { id: 'out', title: 'Out', links: ['two-hops'] },
    { id: 'in', title: 'In', links: ['seed'] },
    { id: 'typed', title: 'Typed' },
    { id: 'weak', title: 'Weak' },
    { id: 'counter', title: 'Counter' },
    { id: 'two-hops', title: 'Two hops' },
    { id: 'island', title: 'Island' },
  ],
  {
    edges: [
      { from_id: 'seed', to_id: 'typed', type: 'supports', weight: 0.9 },
      { from_id: 'weak', to_id: 'seed', type: 'depends_on', weight: 0.2 },
      { from_id: 'seed', to_id: 'counter', type: 'contradicts', weight: 1 },
    ],
  },
);

test('one seed: strong typed edge > wiki-links either way > weak edge > two hops; contradicts and islands absent', async () => {
  const hits = await graphScout.run(twinScoutInput(corpus, { seeds: [seed('seed')] }));
  const best = 0.9;
  expect(hits.map((h) => [h.id, round(h.score)])).toEqual([
    ['typed', 1],
    ['in', round(WIKILINK_WEIGHT / best)],
    ['out', round(WIKILINK_WEIGHT / best)],
    ['weak', round(0.2 / best)],
    ['two-hops', round((WIKILINK_WEIGHT * WIKILINK_WEIGHT * HOP_DECAY) / best)],
  ]);
  expect(hits.find((h) => h.id === 'typed')!.reasons).toEqual(['supports edge "Seed" (1 hop)']);
  expect(hits.find((h) => h.id === 'in')!.reasons).toEqual(['linked from "Seed" (1 hop)']);
  expect(hits.find((h) => h.id === 'two-hops')!.reasons).toEqual(['2 hops from "Seed" via "Out"']);
});

test('a neighbour of the stronger seed ranks higher, and a node reached from two seeds sums its paths', async () => {
  const c = new MemoryCorpus([
    { id: 'strong', links: ['a'] },
    { id: 'faint', links: ['b', 'shared'] },
    { id: 'also', links: ['shared'] },
    { id: 'a' },
    { id: 'b' },
    { id: 'shared' },
  ]);
  const hits = await graphScout.run(twinScoutInput(c, { seeds: [seed('strong', 1), seed('faint', 0.5), seed('also', 0.8)] }));
  const ids = hits.map((h) => h.id);
  expect(ids.slice(0, 3)).toEqual(['shared', 'a', 'b']);
  expect(ids).not.toContain('strong');
});

test('a gated neighbour is not proposed, nor reached through', async () => {
  const c = new MemoryCorpus([
    { id: 'seed', links: ['private', 'public'] },
    { id: 'private', access_scope: 'agent_private', author: 'bob', links: ['behind'] },
    { id: 'public' },
    { id: 'behind' },
  ]);
  const asAlice = await graphScout.run(twinScoutInput(c, { seeds: [seed('seed')], viewer: agentViewer('alice') }));
  expect(asAlice.map((h) => h.id)).toEqual(['public']);
  const asBob = await graphScout.run(twinScoutInput(c, { seeds: [seed('seed')], viewer: agentViewer('bob') }));
  expect(asBob.map((h) => h.id)).toEqual(['private', 'public', 'behind']);
});

test('no seeds, no neighbours', async () => {
  expect(await graphScout.run(twinScoutInput(corpus))).toEqual([]);
});
