import { agentViewer } from '../../../shared/governance/gate';
import { tagsScout } from '../../../shared/retrieval/scouts/tags';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

/**
 * Tag and entity overlap with the query's terms (a tag's path segments count: `project/lithos` matches
 * "lithos"), plus note_type when the query names it; score = share of query terms matched (of at most 3).
 */
const corpus = new MemoryCorpus([
  { id: 'three', tags: ['postgres', 'project/lithos'], entities: ['Pool Manager'] },
  { id: 'two', tags: ['postgres'], entities: ['pool'] },
  { id: 'one', tags: ['project/lithos'] },
  { id: 'none', tags: ['frontend'], entities: ['React'] },
  { id: 'concept', note_type: 'concept' },
  { id: 'gated', tags: ['postgres', 'lithos', 'pool'], namespace: 'elsewhere' },
]);

const run = (text: string, namespaces: string[] = ['default']) => tagsScout.run(twinScoutInput(corpus, { text, viewer: agentViewer('alice'), namespaces }));

test('more matched tags/entities rank higher; scores are the share of query terms matched', async () => {
  const hits = await run('postgres lithos pool');
  expect(hits.map((h) => [h.id, Math.round(h.score * 100) / 100])).toEqual([
    ['three', 1],
    ['two', 0.67],
    ['one', 0.33],
  ]);
  expect(hits[0].reasons[0]).toBe('tags/entities match "#postgres", "#project/lithos", "Pool Manager"');
});

test('a note type named in the query fits notes of that type', async () => {
  const hits = await run('concept');
  expect(hits.map((h) => h.id)).toEqual(['concept']);
  expect(hits[0].reasons[0]).toContain('type concept');
});

test('outside the namespace filter nothing is proposed, however well it matches', async () => {
  expect((await run('postgres lithos pool')).map((h) => h.id)).not.toContain('gated');
  expect((await run('postgres lithos pool', []))[0].id).toBe('gated');
});

test('a query without content terms proposes nothing', async () => {
  expect(await run('the and of')).toEqual([]);
});
