import type { MemoryEngine } from '../../shared/engine';
import { INTENT_PROFILES } from '../../shared/retrieval/constants';
import { intentWeights } from '../../shared/retrieval/rerank';
import { seededRandom } from '../../shared/retrieval/rng';
import { INTENTS, type Intent, type RetrievalResult, type RetrieveOptions } from '../../shared/retrieval/types';
import { note, openHarness } from '../engine/harness';
import type { FakeClock } from '../twins/fake-clock';

/**
 * Intent profiles mix relevance, recency of use and utility (hybrid-memory design). Two notes on the
 * query's subject, both last edited a year ago: "Pool exhaustion postmortem" is the better match, "Pool
 * notes" a weaker one (about two thirds of its relevance). Only their usage stats differ between tests.
 */
const YEAR_AGO = '2025-01-01T00:00:00Z';
const HOUR = 3600 * 1000;
const BEST = 'db/Pool exhaustion postmortem.md';
const OTHER = 'db/Pool notes.md';

const files: Record<string, string> = {
  [BEST]: note(
    { title: 'Pool exhaustion postmortem', updated_at: YEAR_AGO, created_at: YEAR_AGO },
    'The connection pool hit exhaustion under load. Connection pool exhaustion made every request wait for a connection.',
  ),
  [OTHER]: note({ title: 'Pool notes', updated_at: YEAR_AGO, created_at: YEAR_AGO }, 'Notes on the connection pool and its settings.'),
  ...Object.fromEntries(
    ['harbour', 'violin', 'orchard', 'telescope', 'lantern', 'compass', 'meadow', 'falcon', 'pottery', 'canyon', 'lighthouse', 'tapestry'].map((w) => [
      `misc/${w}.md`,
      note({ title: `The ${w}`, updated_at: YEAR_AGO }, `A short note about the ${w}.`),
    ]),
  ),
};

async function open(): Promise<{ engine: MemoryEngine; clock: FakeClock; best: string; other: string }> {
  const { engine, clock } = await openHarness(files);
  await engine.reconcile();
  return { engine, clock, best: engine.services.notes.note(BEST)!.nodeId, other: engine.services.notes.note(OTHER)!.nodeId };
}

const QUERY = 'connection pool exhaustion';
const steady: RetrieveOptions = { record: false, jitter: false, seed: 3 };
const rankOf = (r: RetrievalResult, id: string): number => r.nodes.findIndex((n) => n.id === id);
const ask = (engine: MemoryEngine, intent?: Intent, opts: RetrieveOptions = steady) => engine.services.retrieval.retrieve({ query_text: QUERY, agent_id: 'alice', intent }, opts);

test('fixture: without an intent the better match leads', async () => {
  const { engine, best, other } = await open();
  const r = await ask(engine);
  expect(rankOf(r, best)).toBe(0);
  expect(rankOf(r, other)).toBe(1);
  expect(r.nodes[0].terms.base).toBeGreaterThan(r.nodes[1].terms.base);
  await engine.close();
});

test('continuity favours a note used an hour ago over a slightly more relevant one untouched for a year', async () => {
  const { engine, clock, best, other } = await open();
  await engine.services.learning.memory.stats.update(other, { last_used_at: clock.now() - HOUR });
  expect(rankOf(await ask(engine), best)).toBe(0); // recency of use alone does not reorder without an intent
  const r = await ask(engine, 'continuity');
  expect(rankOf(r, other)).toBe(0);
  expect(rankOf(r, best)).toBe(1);
  // fact_check weighs relevance most: the better match keeps the lead
  expect(rankOf(await ask(engine, 'fact_check'), best)).toBe(0);
  await engine.close();
});

test('frequent favours a note that is used often and salient', async () => {
  const { engine, best, other } = await open();
  await engine.services.learning.memory.stats.update(other, { use_count: 400, salience: 0.95 });
  const r = await ask(engine, 'frequent');
  expect(rankOf(r, other)).toBe(0);
  expect(rankOf(r, best)).toBe(1);
  expect(rankOf(await ask(engine, 'fact_check'), best)).toBe(0);
  await engine.close();
});

test('fact_check favours relevance: it keeps the better match first where continuity and frequent do not', async () => {
  const { engine, clock, best, other } = await open();
  await engine.services.learning.memory.stats.update(other, { last_used_at: clock.now() - HOUR, use_count: 3 });
  const gap = async (intent: Intent) => {
    const r = await ask(engine, intent);
    return r.nodes[rankOf(r, best)].score - r.nodes[rankOf(r, other)].score;
  };
  expect(await gap('fact_check')).toBeGreaterThan(0);
  expect(await gap('fact_check')).toBeGreaterThan(await gap('continuity'));
  expect(await gap('fact_check')).toBeGreaterThan(await gap('frequent'));
  await engine.close();
});

test('jitter off: identical input gives identical results, for every intent', async () => {
  const { engine } = await open();
  for (const intent of [undefined, ...INTENTS]) {
    const a = await ask(engine, intent, { record: false, jitter: false });
    const b = await ask(engine, intent, { record: false, jitter: false });
    expect({ ...b, ms: 0, scouts: {} }).toEqual({ ...a, ms: 0, scouts: {} });
  }
  await engine.close();
});

test('being shown ranks nothing: a note retrieved 400 times, an hour ago, ranks as one never retrieved, for every intent', async () => {
  const { engine, clock, other } = await open();
  const before = await Promise.all([undefined, ...INTENTS].map((intent) => ask(engine, intent)));
  await engine.services.learning.memory.stats.update(other, { retrieval_count: 400, last_retrieved_at: clock.now() - HOUR });
  const after = await Promise.all([undefined, ...INTENTS].map((intent) => ask(engine, intent)));
  expect(after.map((r) => r.nodes)).toEqual(before.map((r) => r.nodes));
  await engine.close();
});

test('jitter on with the same seed: identical; with another seed the explore weights move', async () => {
  const { engine } = await open();
  const a = await ask(engine, 'explore', { record: false, seed: 11 });
  const b = await ask(engine, 'explore', { record: false, seed: 11 });
  expect(b.nodes).toEqual(a.nodes);
  const c = await ask(engine, 'explore', { record: false, seed: 12 });
  const intentTerm = (r: RetrievalResult, id: string) => r.nodes.find((n) => n.id === id)?.terms.intent;
  const top = a.nodes[0].id;
  expect(intentTerm(c, top)).toBeDefined();
  expect(intentTerm(c, top)).not.toBe(intentTerm(a, top));
  await engine.close();
});

test('the explore intent gives final slots to exploration candidates (novelty or random)', async () => {
  const { engine } = await open();
  const plain = await engine.services.retrieval.retrieve({ query_text: QUERY, agent_id: 'alice', max_context_nodes: 4 }, steady);
  const explore = await engine.services.retrieval.retrieve({ query_text: QUERY, agent_id: 'alice', max_context_nodes: 4, intent: 'explore' }, steady);
  const explorers = explore.nodes.filter((n) => n.scouts.includes('novelty') || n.scouts.includes('random'));
  expect(explorers.length).toBeGreaterThanOrEqual(1);
  const newcomers = explore.nodes.filter((n) => !plain.nodes.some((p) => p.id === n.id));
  expect(newcomers.length).toBeGreaterThanOrEqual(1);
  for (const n of newcomers) expect(n.scouts.some((s) => s === 'novelty' || s === 'random')).toBe(true);
  await engine.close();
});

describe('intent weights', () => {
  test.each(INTENTS)('%s without jitter: exactly the profile', (intent) => {
    const p = INTENT_PROFILES[intent];
    expect(intentWeights(intent, null)).toEqual({ relevance: p.relevance, recency: p.recency, utility: p.utility });
  });

  test.each(INTENTS)('%s with jitter: each weight within its amplitude, the sum 1, seeded', (intent) => {
    const p = INTENT_PROFILES[intent];
    for (let seed = 1; seed <= 50; seed++) {
      const w = intentWeights(intent, seededRandom(seed))!;
      expect(w.relevance + w.recency + w.utility).toBeCloseTo(1, 10);
      // renormalising can move a weight by at most about twice the amplitude
      for (const k of ['relevance', 'recency', 'utility'] as const) expect(Math.abs(w[k] / p[k] - 1)).toBeLessThanOrEqual(2 * p.jitter + 1e-9);
      expect(intentWeights(intent, seededRandom(seed))).toEqual(w);
    }
  });

  test('the profiles are the design\'s', () => {
    expect(INTENT_PROFILES).toEqual({
      continuity: { relevance: 0.3, recency: 0.5, utility: 0.2, jitter: 0.02 },
      fact_check: { relevance: 0.6, recency: 0.1, utility: 0.3, jitter: 0.02 },
      frequent: { relevance: 0.2, recency: 0.2, utility: 0.6, jitter: 0.02 },
      associative: { relevance: 0.7, recency: 0.1, utility: 0.2, jitter: 0.05 },
      explore: { relevance: 0.4, recency: 0.3, utility: 0.3, jitter: 0.15 },
    });
  });

  test('no intent: no weights (the fused relevance stands alone)', () => {
    expect(intentWeights(null, seededRandom(1))).toBeNull();
  });
});
