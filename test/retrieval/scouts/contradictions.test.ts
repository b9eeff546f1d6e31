import { agentViewer } from '../../../shared/governance/gate';
import { contradictionsScout } from '../../../shared/retrieval/scouts/contradictions';
import type { ScoutHit } from '../../../shared/retrieval/types';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

const seed = (id: string, score = 1): ScoutHit => ({ id, score, reasons: [] });

/** The other ends of `contradicts` edges touching the seeds: a claim arrives with its counter-claim. */
const corpus = new MemoryCorpus(
  [
    { id: 'claim', title: 'Pool of 10 is enough' },
    { id: 'claim2', title: 'Timeouts are fine' },
    { id: 'strong' },
    { id: 'weak' },
    { id: 'via-weak-seed' },
    { id: 'supporter' },
    { id: 'private', access_scope: 'agent_private', author: 'bob' },
  ],
  {
    edges: [
      { from_id: 'claim', to_id: 'strong', type: 'contradicts', weight: 1, conflict_state: 'open' },
      { from_id: 'weak', to_id: 'claim', type: 'contradicts', weight: 0.3 },
      { from_id: 'claim2', to_id: 'via-weak-seed', type: 'contradicts', weight: 1 },
      { from_id: 'claim', to_id: 'supporter', type: 'supports', weight: 1 },
      { from_id: 'claim', to_id: 'private', type: 'contradicts', weight: 1 },
    ],
  },
);

test('counter-claims of the seeds, by seed score × edge weight, either edge direction; other edge types ignored', async () => {
  const hits = await contradictionsScout.run(twinScoutInput(corpus, { seeds: [seed('claim', 1), seed('claim2', 0.5)], viewer: agentViewer('alice') }));
  expect(hits.map((h) => [h.id, h.score])).toEqual([
    ['strong', 1],
    ['via-weak-seed', 0.5],
    ['weak', 0.3],
  ]);
  expect(hits[0].reasons).toEqual(['contradicts "Pool of 10 is enough", open']);
  expect(hits[2].reasons).toEqual(['contradicts "Pool of 10 is enough"']);
});

test('a gated counter-claim is not revealed; its owner sees it', async () => {
  const asAlice = await contradictionsScout.run(twinScoutInput(corpus, { seeds: [seed('claim')], viewer: agentViewer('alice') }));
  expect(asAlice.map((h) => h.id)).not.toContain('private');
  const asBob = await contradictionsScout.run(twinScoutInput(corpus, { seeds: [seed('claim')], viewer: agentViewer('bob') }));
  expect(asBob.map((h) => h.id)).toContain('private');
});

test('no contradicts edge at the seeds: nothing', async () => {
  expect(await contradictionsScout.run(twinScoutInput(corpus, { seeds: [seed('supporter')] }))).toEqual([]);
});
