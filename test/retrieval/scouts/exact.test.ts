import { agentViewer } from '../../../shared/governance/gate';
import { exactScout } from '../../../shared/retrieval/scouts/exact';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

/** The query is a note's title, alias or id (case, spaces and punctuation aside): score 1, always surfaced. */
const corpus = new MemoryCorpus([
  { id: 'n-pool', title: 'Connection Pool Sizing', aliases: ['pool sizing'] },
  { id: 'n-pool-2', title: 'Connection pool sizing, revisited' },
  { id: 'n-adr', title: 'ADR 7' },
  { id: 'n-secret', title: 'Pool sizing', access_scope: 'agent_private', author: 'bob' },
]);

const run = (text: string) => exactScout.run(twinScoutInput(corpus, { text, viewer: agentViewer('alice') }));

test.each([
  ['the title, other case and spacing', 'connection   pool SIZING', ['n-pool']],
  ['the title with punctuation around it', '"Connection Pool Sizing!"', ['n-pool']],
  ['an alias', 'Pool Sizing', ['n-pool']],
  ['a short title', 'adr-7', ['n-adr']],
  ['the note id', 'n-adr', ['n-adr']],
])('%s is an exact hit', async (_what, text, ids) => {
  const hits = await run(text);
  expect(hits.map((h) => h.id)).toEqual(ids);
  for (const h of hits) expect(h.score).toBe(1);
  expect(hits[0].reasons[0]).toMatch(/^the query is this note's (title or alias|id)$/);
});

test('words of a title are not a title: a partial or longer query is no exact hit', async () => {
  expect(await run('connection pool')).toEqual([]);
  expect(await run('connection pool sizing revisited twice')).toEqual([]);
});

test('a gated note with the same title is not surfaced; the person sees both', async () => {
  expect((await run('pool sizing')).map((h) => h.id)).toEqual(['n-pool']);
  const human = await exactScout.run(twinScoutInput(corpus, { text: 'pool sizing' }));
  expect(human.map((h) => h.id).sort()).toEqual(['n-pool', 'n-secret']);
});
