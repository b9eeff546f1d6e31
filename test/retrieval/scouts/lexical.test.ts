import { agentViewer } from '../../../shared/governance/gate';
import { lexicalScout } from '../../../shared/retrieval/scouts/lexical';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

/** BM25 (the twin: query terms matched), max-normalised so the best note scores 1, best first. */
const corpus = new MemoryCorpus([
  { id: 'both', title: 'Pool exhaustion', body: 'The connection pool ran dry under load.' },
  { id: 'one', title: 'Pool sizing', body: 'How big a pool should be.' },
  { id: 'other', title: 'Release notes', body: 'Version 2 shipped on Monday.' },
  { id: 'private', title: 'Pool exhaustion, my notes', body: 'connection pool', access_scope: 'agent_private', author: 'bob' },
]);

const run = (text: string, o: Parameters<typeof twinScoutInput>[1] = {}) => lexicalScout.run(twinScoutInput(corpus, { text, ...o }));

test('ranks by matched query terms: both terms first (score 1), one term next, no match absent', async () => {
  const hits = await run('connection pool', { viewer: agentViewer('alice') });
  expect(hits.map((h) => [h.id, h.score])).toEqual([
    ['both', 1],
    ['one', 0.5],
  ]);
  expect(hits[0].reasons).toEqual(['BM25 1.00 of the best match']);
});

test('every score is in [0,1] and the limit is honoured', async () => {
  const hits = await run('pool', { limit: 1 });
  expect(hits).toHaveLength(1);
  for (const h of await run('connection pool exhaustion')) {
    expect(h.score).toBeGreaterThan(0);
    expect(h.score).toBeLessThanOrEqual(1);
  }
});

test('the gate is applied before normalising: another agent\'s private note is neither returned nor the yardstick', async () => {
  const asBob = (await run('connection pool exhaustion', { viewer: agentViewer('bob') })).map((h) => h.id);
  expect(asBob).toContain('private');
  const asAlice = await run('connection pool exhaustion', { viewer: agentViewer('alice') });
  expect(asAlice.map((h) => h.id)).not.toContain('private');
  expect(asAlice[0]).toMatchObject({ id: 'both', score: 1 });
});

test('a query without content terms (stopwords, punctuation) proposes nothing', async () => {
  expect(await run('the of and ?!')).toEqual([]);
  expect(await run('')).toEqual([]);
});
