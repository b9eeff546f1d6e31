import { note, openHarness, type Harness } from '../engine/harness';
import { LEDGER_RANK } from '../../shared/retrieval/ledger-rank';
import type { RetrievalResult } from '../../shared/retrieval/types';

/**
 * The re-rank reads a ledger entry's phase and vitality (retrieval/ledger-rank.ts): with equal text a
 * canonical entry outranks a pattern; a dormant entry fades but is still returned; other notes are untouched.
 */

const DAY = 24 * 3600 * 1000;
const START = Date.UTC(2026, 0, 1);
const iso = (t: number): string => new Date(t).toISOString();
// Ids in this order, so a tie would put FIRST first: the order the phase makes is not the tie-break's.
const FIRST = '0000000a-0000-4000-8000-000000000001';
const SECOND = '0000000a-0000-4000-8000-000000000002';
const OLD = '0000000a-0000-4000-8000-000000000003';
const OBS = '0000000a-0000-4000-8000-000000000004';

const BODY = 'Rotate the signing keys of the token service every ninety days.\n';

let h: Harness;
beforeEach(async () => {
  h = await openHarness({
    // The same title and text: only the phase can tell them apart.
    'd1/rotation.md': note({ id: FIRST, title: 'Key rotation', note_type: 'decision', created_at: iso(START) }, BODY),
    'd2/rotation.md': note({ id: SECOND, title: 'Key rotation', note_type: 'decision', created_at: iso(START) }, BODY),
    'd/old.md': note({ id: OLD, title: 'Key rotation old', note_type: 'decision', created_at: iso(START - 60 * DAY) }, BODY),
    'n/obs.md': note({ id: OBS, title: 'Key rotation seen', created_at: iso(START) }, BODY),
  });
  await h.engine.reconcile();
});
afterEach(async () => {
  await h.engine.close();
});

const ask = (): Promise<RetrievalResult> =>
  h.engine.services.retrieval.retrieve({ query_text: 'rotate signing keys token service', agent_id: 'agent-a' }, { jitter: false, seed: 1, record: false });
const node = (r: RetrievalResult, id: string) => r.nodes.find((n) => n.id === id)!;
const order = (r: RetrievalResult): string[] => r.nodes.map((n) => n.id).filter((id) => id === FIRST || id === SECOND);

async function setPhase(id: string, phase: 'pattern' | 'emergent' | 'canonical'): Promise<void> {
  const now = h.clock.now();
  await h.engine.services.learning.memory.phases.set({ node_id: id, phase, phase_since: now, vitality: 'active', vitality_since: now, first_used_at: null, evaluated_at: now });
}

test('two patterns with equal text score the same; the tie goes by id', async () => {
  const r = await ask();
  expect(node(r, SECOND).score).toBe(node(r, FIRST).score);
  expect(order(r)).toEqual([FIRST, SECOND]);
  expect(node(r, FIRST).terms.ledger).toBe(1);
});

test('canonical outranks a pattern with equal text, by the canonical factor', async () => {
  await setPhase(SECOND, 'canonical');
  const r = await ask();
  expect(order(r)).toEqual([SECOND, FIRST]);
  expect(node(r, SECOND).terms.ledger).toBe(LEDGER_RANK.phase.canonical);
  expect(node(r, SECOND).score / node(r, FIRST).score).toBeCloseTo(LEDGER_RANK.phase.canonical, 3);
  expect(node(r, SECOND).reasons.join(' ')).toContain('ledger: canonical, active');
});

test('an entry unused and unwritten for 60 days is dormant: ranked lower, still returned', async () => {
  const r = await ask();
  const old = node(r, OLD);
  expect(old).toBeDefined();
  expect(old.terms.ledger).toBe(LEDGER_RANK.vitality.dormant);
  expect(old.score).toBeGreaterThan(0);
  expect(old.score).toBeLessThan(node(r, FIRST).score);
  // Even canonical, a dormant entry ranks below an active pattern (1.1 × 0.8 < 1) and stays in the result.
  await setPhase(OLD, 'canonical');
  const again = await ask();
  expect(node(again, OLD).terms.ledger).toBeCloseTo(LEDGER_RANK.phase.canonical * LEDGER_RANK.vitality.dormant, 10);
  expect(node(again, OLD).score).toBeLessThan(node(again, FIRST).score);
});

test('a use wakes a dormant entry: vitality follows the last use, not the last retrieval', async () => {
  const mem = h.engine.services.learning.memory;
  await mem.stats.update(OLD, { retrieval_count: 40, last_retrieved_at: h.clock.now() });
  expect(node(await ask(), OLD).terms.ledger).toBe(LEDGER_RANK.vitality.dormant);
  await mem.stats.update(OLD, { use_count: 1, last_used_at: h.clock.now() - 8 * DAY });
  expect(node(await ask(), OLD).terms.ledger).toBe(LEDGER_RANK.vitality.decaying);
});

test('other notes carry no ledger term and keep their score', async () => {
  const before = node(await ask(), OBS);
  expect(before.terms).not.toHaveProperty('ledger');
  await setPhase(OBS, 'canonical'); // a stray row for a note of another type moves nothing
  expect(node(await ask(), OBS)).toEqual(before);
});
