import { agentViewer } from '../../../shared/governance/gate';
import { RECENCY_HALF_LIFE_DAYS, RECENCY_LIMIT } from '../../../shared/retrieval/constants';
import { recencyScout } from '../../../shared/retrieval/scouts/recency';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 0, 31);

/** The most recently updated visible notes, scored by a half-life of RECENCY_HALF_LIFE_DAYS. */
test('newest first; today scores 1, one half-life ago 0.5, two half-lives 0.25', async () => {
  const corpus = new MemoryCorpus([
    { id: 'old', updated_at: NOW - 2 * RECENCY_HALF_LIFE_DAYS * DAY },
    { id: 'today', updated_at: NOW },
    { id: 'month', updated_at: NOW - RECENCY_HALF_LIFE_DAYS * DAY },
  ]);
  const hits = await recencyScout.run(twinScoutInput(corpus, { now: NOW }));
  expect(hits.map((h) => [h.id, h.score])).toEqual([
    ['today', 1],
    ['month', 0.5],
    ['old', 0.25],
  ]);
  expect(hits[0].reasons).toEqual(['updated today']);
  expect(hits[1].reasons).toEqual([`updated ${RECENCY_HALF_LIFE_DAYS} days ago`]);
});

test(`a short list: at most ${RECENCY_LIMIT} notes however large the asked limit`, async () => {
  const corpus = new MemoryCorpus(Array.from({ length: 50 }, (_, i) => ({ id: `n${String(i).padStart(2, '0')}`, updated_at: NOW - i * DAY })));
  const hits = await recencyScout.run(twinScoutInput(corpus, { now: NOW, limit: 100 }));
  expect(hits).toHaveLength(RECENCY_LIMIT);
  expect(hits[0].id).toBe('n00');
  expect(hits[RECENCY_LIMIT - 1].id).toBe(`n${RECENCY_LIMIT - 1}`);
});

test('gated notes are skipped and the list is filled with the next visible ones', async () => {
  const corpus = new MemoryCorpus([
    { id: 'newest-private', updated_at: NOW, access_scope: 'user_private' },
    { id: 'a', updated_at: NOW - DAY },
    { id: 'b', updated_at: NOW - 2 * DAY },
  ]);
  const hits = await recencyScout.run(twinScoutInput(corpus, { now: NOW, viewer: agentViewer('alice'), limit: 2 }));
  expect(hits.map((h) => h.id)).toEqual(['a', 'b']);
});

test('a note dated in the future counts as today (score never above 1)', async () => {
  const corpus = new MemoryCorpus([{ id: 'future', updated_at: NOW + 5 * DAY }]);
  expect(await recencyScout.run(twinScoutInput(corpus, { now: NOW }))).toEqual([{ id: 'future', score: 1, reasons: ['updated today'] }]);
});
