import { agentViewer } from '../../../shared/governance/gate';
import { labelWords } from '../../../shared/model/tags';
import { tagsScout } from '../../../shared/retrieval/scouts/tags';
import { MemoryCorpus, twinScoutInput, type TwinNote } from '../../twins/memory-corpus';

/**
 * Tag and entity overlap with the query's terms (a tag's path segments count: `project/lithos` matches
 * "lithos"), plus note_type when the query names it; score = share of query terms matched (of at most 3).
 */
const NOTES: TwinNote[] = [
  { id: 'three', tags: ['postgres', 'project/lithos'], entities: ['Pool Manager'] },
  { id: 'two', tags: ['postgres'], entities: ['pool'] },
  { id: 'one', tags: ['project/lithos'] },
  { id: 'none', tags: ['frontend'], entities: ['React'] },
  { id: 'concept', note_type: 'concept' },
  { id: 'gated', tags: ['postgres', 'lithos', 'pool'], namespace: 'elsewhere' },
];
const corpus = new MemoryCorpus(NOTES);

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

test("a corpus's own word index (taggedWith) proposes exactly what the scout's index over notes() does", async () => {
  // The engine's corpus keeps the index as notes change (vault/note-words.ts); here the plainest one.
  class Indexed extends MemoryCorpus {
    taggedWith(word: string): string[] {
      return [...this.notes()].filter((n) => [...n.tags, ...n.entities].some((l) => labelWords(l).includes(word)) || n.note_type === word).map((n) => n.id);
    }
  }
  const indexed = new Indexed(NOTES);
  for (const text of ['postgres lithos pool', 'concept', 'manager react', 'project', 'nothing here']) {
    for (const namespaces of [['default'], []]) {
      const input = { text, viewer: agentViewer('alice'), namespaces };
      expect([text, await tagsScout.run(twinScoutInput(indexed, input))]).toEqual([text, await tagsScout.run(twinScoutInput(corpus, input))]);
    }
  }
});
