import { agentViewer } from '../../../shared/governance/gate';
import { tokenize } from '../../../shared/index/tokenizer';
import { PRECEDENT_MATCH } from '../../../shared/retrieval/constants';
import { PrecedentIndex } from '../../../shared/retrieval/precedent-index';
import { precedentScout } from '../../../shared/retrieval/scouts/precedent';
import type { PrecedentRow } from '../../../shared/stores/memory-types';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

/** Case-based retrieval: notes used for a similar past query are proposed, scored by the resemblance. */

let at = 0;
const precedent = (query_text: string, used: string[], query_class = 'lookup', agent_id: string | null = null): PrecedentRow => ({
  precedent_id: `r${++at}`,
  at,
  query_class,
  query_text,
  agent_id,
  terms: [...new Set(tokenize(query_text))],
  used,
});

const NOTES = [{ id: 'pool-fix', title: 'Pool fix' }, { id: 'pool-metrics' }, { id: 'deploy' }, { id: 'secret', access_scope: 'user_private' as const }];
const PRECEDENTS = [
  precedent('connection pool exhausted during nightly batch', ['pool-fix', 'pool-metrics']),
  precedent('deploy pipeline failed on staging', ['deploy']),
  precedent('connection pool exhausted by long transactions', ['secret']),
];

const run = (corpus: MemoryCorpus, text: string, extra: Parameters<typeof twinScoutInput>[1] = {}) => precedentScout.run(twinScoutInput(corpus, { text, ...extra }));

test('notes used for a similar past query are proposed with the similarity as score and the precedent as reason', async () => {
  const corpus = new MemoryCorpus(NOTES, { precedents: PRECEDENTS.slice(0, 2) });
  const hits = await run(corpus, 'connection pool exhausted during the nightly batch');
  expect(hits.map((h) => h.id).sort()).toEqual(['pool-fix', 'pool-metrics']);
  // the same terms as the first precedent: similarity 1
  expect(hits[0].score).toBeCloseTo(1, 6);
  expect(hits[0].reasons).toEqual(['used for a similar past query: "connection pool exhausted during nightly batch" (similarity 1.00)']);
});

test('a weaker resemblance proposes weakly; below the threshold, nothing', async () => {
  const corpus = new MemoryCorpus(NOTES, { precedents: PRECEDENTS.slice(0, 2) });
  const partial = await run(corpus, 'connection pool exhausted');
  expect(partial.length).toBe(2);
  expect(partial[0].score).toBeGreaterThanOrEqual(PRECEDENT_MATCH.min_similarity);
  expect(partial[0].score).toBeLessThan(1);
  expect(await run(corpus, 'nightly weather report for the staging team')).toEqual([]);
});

test('a note reached by several precedents keeps its best similarity', async () => {
  const corpus = new MemoryCorpus(NOTES, {
    precedents: [precedent('pool exhausted', ['pool-fix']), precedent('connection pool exhausted nightly', ['pool-fix'])],
  });
  const [hit] = await run(corpus, 'connection pool exhausted nightly');
  expect(hit).toMatchObject({ id: 'pool-fix', score: 1 });
});

test('a precedent that used a note the viewer may not see is not followed at all; a deleted note is just skipped', async () => {
  const corpus = new MemoryCorpus(NOTES, { precedents: [precedent('pool metrics and secrets', ['pool-metrics', 'secret']), precedent('pool fix rollout', ['pool-fix', 'gone'])] });
  expect(await run(corpus, 'pool metrics and secrets', { viewer: agentViewer('alice') })).toEqual([]);
  expect((await run(corpus, 'pool metrics and secrets')).map((h) => h.id).sort()).toEqual(['pool-metrics', 'secret']);
  expect((await run(corpus, 'pool fix rollout', { viewer: agentViewer('alice') })).map((h) => h.id)).toEqual(['pool-fix']);
});

test('the query text is quoted only to whoever asked it', async () => {
  const corpus = new MemoryCorpus(NOTES, { precedents: [precedent('deploy pipeline failed on staging', ['deploy'], 'lookup', 'bob')] });
  const [mine] = await run(corpus, 'deploy pipeline failed on staging', { viewer: agentViewer('bob') });
  expect(mine.reasons).toEqual(['used for a similar past query: "deploy pipeline failed on staging" (similarity 1.00)']);
  const [theirs] = await run(corpus, 'deploy pipeline failed on staging', { viewer: agentViewer('alice') });
  expect(theirs.reasons).toEqual(['used for a similar past query of another agent (similarity 1.00)']);
});

test('a note the viewer may not see never surfaces through a precedent; a deleted note neither', async () => {
  const corpus = new MemoryCorpus(NOTES, { precedents: [...PRECEDENTS, precedent('connection pool exhausted by long transactions', ['gone'])] });
  const agent = await run(corpus, 'connection pool exhausted by long transactions', { viewer: agentViewer('alice') });
  expect(agent.map((h) => h.id)).not.toContain('secret');
  expect(agent.map((h) => h.id)).not.toContain('gone');
  const hidden = await run(corpus, 'connection pool exhausted by long transactions', { hidden: ['secret'] });
  expect(hidden.map((h) => h.id)).not.toContain('secret');
  // the person (no viewer restriction) does see it
  expect((await run(corpus, 'connection pool exhausted by long transactions')).map((h) => h.id)).toContain('secret');
});

test('silent without precedents (a fresh memory changes no ranking)', async () => {
  expect(await run(new MemoryCorpus(NOTES), 'connection pool exhausted during nightly batch')).toEqual([]);
});

describe('PrecedentIndex', () => {
  test('a precedent of another query class counts at other_class_factor of its similarity', () => {
    const index = new PrecedentIndex([precedent('flaky test in the payment service', ['n1'], 'debug')]);
    expect(index.match(tokenize('flaky test in the payment service'), 'debug')[0].similarity).toBeCloseTo(1, 6);
    const other = index.match(tokenize('flaky test in the payment service'), 'design');
    expect(other.length === 0 || other[0].similarity === PRECEDENT_MATCH.other_class_factor).toBe(true);
  });

  test('rare shared terms weigh more than a term every precedent has', () => {
    const index = new PrecedentIndex([
      precedent('caroline adoption agency', ['a']),
      precedent('caroline painting class', ['b']),
      precedent('caroline camping trip', ['c']),
    ]);
    const sims = new Map(index.match(tokenize('caroline adoption'), 'lookup').map((m) => [m.used[0], m.similarity]));
    // shares "adoption" (rare) with a; only "caroline" (in every precedent) with b and c
    expect(sims.get('a')).toBeGreaterThan(sims.get('b') ?? 0);
    expect(sims.has('b')).toBe(false);
  });

  test('at most max_matches precedents, most similar first; no terms or no precedents: none', () => {
    const rows = Array.from({ length: PRECEDENT_MATCH.max_matches + 5 }, (_, i) => precedent('pool exhausted', [`n${i}`]));
    const out = new PrecedentIndex(rows).match(tokenize('pool exhausted'), 'lookup');
    expect(out).toHaveLength(PRECEDENT_MATCH.max_matches);
    expect(new PrecedentIndex(rows).match([], 'lookup')).toEqual([]);
    expect(new PrecedentIndex([]).match(tokenize('pool exhausted'), 'lookup')).toEqual([]);
  });
});
