import type { MemoryEngine } from '../../shared/engine';
import type { RetrievalResult } from '../../shared/retrieval/types';
import { note, openHarness } from '../engine/harness';

/**
 * Temperature = 1 − coherence among the top candidates. A query whose words all point at notes about one
 * thing is coherent (cool); a query whose words are spread over unrelated notes is scattered (hot). Both
 * in one vault, so only the query differs.
 */
const coherent: Record<string, string> = {
  'db/Connection pool exhaustion.md': note(
    { title: 'Connection pool exhaustion', tags: ['postgres', 'pool'] },
    'The connection pool ran out of connections under load: requests waited on the pool until timeout. See [[Pool sizing]] and [[Pool timeouts]].',
  ),
  'db/Pool sizing.md': note(
    { title: 'Pool sizing', tags: ['postgres', 'pool'] },
    'Sizing the connection pool: too few connections and the pool is exhausted under load. Related: [[Connection pool exhaustion]].',
  ),
  'db/Pool timeouts.md': note(
    { title: 'Pool timeouts', tags: ['postgres', 'pool'] },
    'Connection pool timeouts happen when the pool is exhausted and requests wait for a connection. See [[Pool sizing]].',
  ),
  'db/Pool metrics.md': note(
    { title: 'Pool metrics', tags: ['postgres', 'pool'] },
    'Watch the connection pool: connections in use, waiting requests and pool exhaustion events. See [[Connection pool exhaustion]].',
  ),
  'db/Pool leak.md': note(
    { title: 'Pool leak', tags: ['postgres', 'pool'] },
    'A connection leak exhausts the pool: connections never return to the pool. See [[Pool metrics]] and [[Pool timeouts]].',
  ),
  'db/Pool exhaustion runbook.md': note(
    { title: 'Pool exhaustion runbook', tags: ['postgres', 'pool'] },
    'When the connection pool is exhausted: check for a connection leak, then the pool size. See [[Pool leak]] and [[Pool sizing]].',
  ),
  'db/Pool per service.md': note(
    { title: 'Pool per service', tags: ['postgres', 'pool'] },
    'Each service has its own connection pool so one exhausted pool does not starve the others. See [[Pool sizing]].',
  ),
};

const scattered: Record<string, string> = {
  'life/Volcano trip.md': note({ title: 'Volcano trip', tags: ['travel'] }, 'We hiked to the crater of the volcano at dawn and saw the lava lake.'),
  'music/Saxophone practice.md': note({ title: 'Saxophone practice', tags: ['music'] }, 'Long tones and scales on the tenor saxophone every morning.'),
  'money/Tax return.md': note({ title: 'Tax return', tags: ['finance'] }, 'The tax return is due in April; keep the receipts for deductions.'),
  'science/Glacier retreat.md': note({ title: 'Glacier retreat', tags: ['climate'] }, 'The glacier retreated forty metres this year as summers warm.'),
  'food/Sourdough starter.md': note({ title: 'Sourdough starter', tags: ['baking'] }, 'Feed the sourdough starter with flour and water twice a day.'),
};

/** Unrelated notes around both groups, so that the top candidates of a query are not the whole vault. */
const FILLER = ['harbour', 'violin', 'orchard', 'telescope', 'lantern', 'compass', 'meadow', 'falcon', 'pottery', 'canyon', 'lighthouse', 'tapestry', 'marathon', 'origami', 'aquarium', 'vineyard', 'chess', 'kayak', 'mosaic', 'desert'];
const filler: Record<string, string> = Object.fromEntries(
  FILLER.map((w) => [`misc/${w}.md`, note({ title: `The ${w}`, tags: ['misc'] }, `A short note about the ${w} and what we saw there.`)]),
);

let engine: MemoryEngine;

beforeAll(async () => {
  ({ engine } = await openHarness({ ...coherent, ...scattered, ...filler }));
  await engine.reconcile();
});

afterAll(() => engine.close());

const ask = (q: string): Promise<RetrievalResult> => engine.services.retrieval.retrieve({ query_text: q, agent_id: 'alice' }, { record: false, jitter: false, seed: 1 });

test('a coherent query is cooler than a scattered one', async () => {
  const cool = await ask('connection pool exhaustion');
  const hot = await ask('volcano saxophone tax glacier sourdough');
  expect(cool.temperature).toBeLessThan(hot.temperature);
  // clearly apart, not a rounding difference
  expect(hot.temperature - cool.temperature).toBeGreaterThan(0.15);
});

test('temperature and coherence are in [0,1] and add up to 1; every coherence signal is reported in [0,1]', async () => {
  for (const q of ['connection pool exhaustion', 'volcano saxophone tax glacier sourdough', 'pool', 'lava', 'nothing matches this zzzz']) {
    const r = await ask(q);
    expect(r.temperature).toBeGreaterThanOrEqual(0);
    expect(r.temperature).toBeLessThanOrEqual(1);
    expect(r.temperature + r.coherence).toBeCloseTo(1, 3);
    expect(Object.keys(r.coherence_signals).sort()).toEqual(['agreement', 'embedding', 'lexical', 'narrowing']);
    for (const v of Object.values(r.coherence_signals)) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
  }
});

test('the signals say why: the coherent query narrows the vault to one note and its top notes lie closer than random pairs', async () => {
  const cool = (await ask('connection pool exhaustion')).coherence_signals;
  const hot = (await ask('volcano saxophone tax glacier sourdough')).coherence_signals;
  expect(cool.narrowing).toBeGreaterThan(hot.narrowing);
  expect(cool.embedding).toBeGreaterThan(hot.embedding);
});

test('words the vault has never seen are hotter than words it knows', async () => {
  const known = await ask('connection pool exhaustion');
  const unknown = await ask('blorf quuxle zint');
  expect(unknown.coherence_signals.narrowing).toBe(0);
  expect(unknown.temperature).toBeGreaterThan(known.temperature);
});

test('the same query gives the same temperature (no hidden state)', async () => {
  const a = await ask('connection pool exhaustion');
  const b = await ask('connection pool exhaustion');
  expect(b.temperature).toBe(a.temperature);
  expect(b.coherence_signals).toEqual(a.coherence_signals);
});

test('the temperature is recorded in the receipt as in the result', async () => {
  const r = await engine.services.retrieval.retrieve({ query_text: 'connection pool exhaustion', agent_id: 'alice' }, { jitter: false, seed: 1 });
  const receipt = (await engine.services.retrieval.receipts.query({ receipt_id: r.receipt_id! })).receipts[0];
  expect(receipt.temperature).toBe(r.temperature);
  expect(receipt.coherence).toBe(r.coherence);
});
