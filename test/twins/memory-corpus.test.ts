import { LithosError } from '../../shared/errors';
import { agentViewer } from '../../shared/governance/gate';
import { MemoryCorpus, twinScoutInput } from './memory-corpus';

/** The twin other scout tests build on: each signal does what its doc comment promises. */
describe('MemoryCorpus twin', () => {
  const corpus = new MemoryCorpus(
    [
      { id: 'a', title: 'Connection pooling', aliases: ['pool'], body: 'Pool size and pool wait.', vector: [1, 0], links: ['b', 'missing'] },
      { id: 'b', title: 'Pool wait', body: 'Waiting for a connection.', vector: [0.6, 0.8], access_scope: 'user_private' },
      { id: 'c', title: 'Cooking', body: 'Pasta.', vector: [0, 1], namespace: 'home' },
    ],
    {
      now: 5_000,
      embed: () => [1, 0],
      edges: [{ from_id: 'a', to_id: 'c', type: 'contradicts', weight: 0.4 }],
      coactivation: [{ a: 'a', b: 'b', count: 3 }],
      stats: [{ node_id: 'a', retrieval_count: 7 }],
    },
  );
  const all = () => true;

  test('notes get documented defaults', () => {
    expect(corpus.size()).toBe(3);
    expect(corpus.note('c')).toMatchObject({ path: 'home/Cooking.md', namespace: 'home', note_type: 'observation', access_scope: 'shared', status: 'active', updated_at: 5_000, tags: [] });
    expect(corpus.note('nope')).toBeUndefined();
  });

  test('lexical: share of query terms found, max-normalised, best first, gated by allow', () => {
    expect(corpus.lexical('pool wait connection', 10, all)).toEqual([
      { id: 'a', score: 1 },
      { id: 'b', score: 1 },
    ]);
    expect(corpus.lexical('pool size', 10, all)).toEqual([
      { id: 'a', score: 1 },
      { id: 'b', score: 0.5 },
    ]);
    expect(corpus.lexical('pool', 10, (id) => id !== 'a')).toEqual([{ id: 'b', score: 1 }]);
    expect(corpus.lexical('the', 10, all)).toEqual([]);
  });

  test('vector: cosine to the embedded query, min-max normalised', async () => {
    const hits = await corpus.vector('anything', 10, all);
    expect(hits.map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(hits[0].score).toBe(1);
    expect(hits[1].score).toBeCloseTo(0.6);
    expect(hits[2].score).toBe(0);
    expect(await new MemoryCorpus([{ id: 'x', vector: [1] }]).vector('q', 5, all)).toEqual([]);
  });

  test('exact, links, edges, coactivation, stats', () => {
    expect(corpus.exact('  POOL ')).toEqual(['a']);
    expect(corpus.exact('pool-wait')).toEqual(['b']);
    expect(corpus.linksOut('a')).toEqual(['b']);
    expect(corpus.linksIn('b')).toEqual(['a']);
    expect(corpus.edges('c')).toMatchObject([{ from_id: 'a', to_id: 'c', type: 'contradicts', weight: 0.4, created_at: 5_000 }]);
    expect(corpus.coactivated('b')).toEqual([{ other: 'a', namespace: 'default', count: 3, last_at: 5_000 }]);
    expect(corpus.stats('a')).toMatchObject({ node_id: 'a', retrieval_count: 7, salience: 0.5 });
    expect(corpus.stats('c')).toMatchObject({ node_id: 'c', retrieval_count: 0 });
    expect(corpus.noteVector('a')).toEqual(Float32Array.from([1, 0]));
    expect(corpus.noteVector('nope')).toBeNull();
  });

  test('frame: extracted once from the body, the same object until the note is replaced', () => {
    const c = new MemoryCorpus([{ id: 'p', body: '## Problem\n- slow\n## Fix\n- index' }, { id: 'q', frame: null, body: '## Problem\n- x\n## Fix\n- y' }]);
    const f = c.frame('p');
    expect(f?.actions).toEqual(['index']);
    expect(c.frame('p')).toBe(f);
    expect(c.frame('q')).toBeNull();
    c.update({ id: 'p', body: '## Problem\n- slow\n## Fix\n- cache' });
    expect(c.frame('p')).not.toBe(f);
    expect(c.extractions).toBe(2);
  });

  test('twinScoutInput applies the real scope gate and namespace filter', () => {
    const input = twinScoutInput(corpus, { viewer: agentViewer('agent-1'), namespaces: ['default'] });
    expect(['a', 'b', 'c', 'nope'].filter(input.visible)).toEqual(['a']);
    expect(['a', 'b', 'c'].filter(twinScoutInput(corpus).visible)).toEqual(['a', 'b', 'c']);
    expect(['a', 'b', 'c'].filter(twinScoutInput(corpus, { hidden: ['c'] }).visible)).toEqual(['a', 'b']);
  });

  test('bad fixtures are refused with invalid_argument', () => {
    expect(() => new MemoryCorpus([{ id: 'a' }, { id: 'a' }])).toThrow(LithosError);
    expect(() => new MemoryCorpus([{ id: '' }])).toThrow(expect.objectContaining({ code: 'invalid_argument' }) as Error);
  });
});
