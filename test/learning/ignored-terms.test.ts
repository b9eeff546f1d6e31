import type { EngineCorpus } from '../../shared/retrieval/engine-corpus';
import { IGNORED_TERMS, IgnoredTermsIndex } from '../../shared/retrieval/ignored-terms';
import { ignoredPenalty } from '../../shared/retrieval/rerank';
import { MemoryStore } from '../../shared/stores/memory-store';
import { note, openHarness, type Harness } from '../engine/harness';
import { env } from '../stores/helpers';

/**
 * The query-conditional ignored penalty: feedback remembers the words of the questions a note was ignored
 * for, and the re-rank weighs the note's ignores by how much a later question is like those: a note passed
 * over again and again for "kitchen tap washer" is pushed down for that question, not for "shed roof felt".
 */

const DAY = 86_400_000;
const KITCHEN = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
const SHED = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const FILES: Record<string, string> = {
  'home/beds.md': note({ id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', title: 'Raised beds' }, 'Tomatoes, courgettes and beans go in the raised beds after the last frost.\n'),
  'home/shed.md': note({ id: SHED, title: 'Shed' }, 'The shed roof leaks at the back corner; felt and battens are in the loft. The tap by the shed is outside.\n'),
  'work/payments.md': note({ id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', title: 'Payments incident' }, 'Card payments failed for an hour when the processor rotated its certificate.\n'),
  'home/kitchen.md': note({ id: KITCHEN, title: 'Kitchen' }, 'The kitchen tap drips; a new washer fixed it last winter.\n'),
  'agent/agent-a/secret.md': note(
    { id: 'ffffffff-ffff-4fff-8fff-ffffffffffff', title: 'Private plan', access_scope: 'agent_private', namespace: 'agent/agent-a' },
    'Agent A keeps its own plan for the kitchen tap and the shed roof here.\n',
  ),
};

describe('feedback remembers what a note was ignored for, and the re-rank reads it', () => {
  let h: Harness;
  const shipped = IGNORED_TERMS.unrelated;
  beforeEach(async () => {
    IGNORED_TERMS.unrelated = 0;
    h = await openHarness(FILES);
    await h.engine.reconcile();
  });
  afterEach(async () => {
    IGNORED_TERMS.unrelated = shipped;
    await h.engine.close();
  });

  const ask = (q: string, agent: string | undefined, record = true) =>
    h.engine.services.retrieval.retrieve({ query_text: q, max_context_nodes: 6, ...(agent ? { agent_id: agent } : {}) }, { jitter: false, seed: 1, record, without: ['random'] });
  const corpus = (): EngineCorpus => (h.engine.services.retrieval as unknown as { corpus: EngineCorpus }).corpus;
  const learned = () => h.engine.services.learning.memory.learned;
  const penaltyOf = async (q: string, id: string, agent?: string): Promise<number | undefined> => (await ask(q, agent, false)).nodes.find((n) => n.id === id)?.terms.ignored_penalty;

  /** Asks `q` as `agent` `times` times, citing the kitchen note: the shed, shown beside it, is ignored each time. */
  async function passOverShed(q: string, agent: string, times: number): Promise<void> {
    for (let i = 0; i < times; i++) {
      const r = await ask(q, agent);
      expect(r.nodes.map((n) => n.id)).toEqual(expect.arrayContaining([KITCHEN, SHED]));
      const out = await h.engine.services.learning.feedback({ receipt_id: r.receipt_id!, cited: [KITCHEN], agent });
      expect(out.ignored).toContain(SHED);
      expect(out.ignored_terms).toBe(true);
    }
  }

  test('a note ignored for one question is penalised for that question, not for an unrelated one', async () => {
    await passOverShed('kitchen tap washer', 'agent-b', 5);
    const full = ignoredPenalty(h.engine.services.learning.memory.stats.get(SHED));
    expect(full).toBeGreaterThan(0);
    // The same words: the penalty counts in full. Words it was never ignored for: not at all (unrelated share 0).
    expect(await penaltyOf('kitchen tap washer', SHED)).toBeCloseTo(full, 3);
    expect(await penaltyOf('shed roof felt', SHED)).toBe(0);
    // Partly alike: in between.
    const partly = (await penaltyOf('outside tap roof', SHED))!;
    expect(partly).toBeGreaterThan(0);
    expect(partly).toBeLessThan(full);
    // As shipped, an unrelated question keeps the unrelated share of the penalty; at 1 every ignore counts
    // against every question alike, as before the penalty was query-conditional.
    IGNORED_TERMS.unrelated = shipped;
    expect(await penaltyOf('shed roof felt', SHED)).toBeCloseTo(shipped * full, 3);
    IGNORED_TERMS.unrelated = 1;
    expect(await penaltyOf('shed roof felt', SHED)).toBeCloseTo(full, 3);
  });

  test('retrieving and trying write no ignored words; only feedback that counts ignores does', async () => {
    for (let i = 0; i < 3; i++) await ask('kitchen tap washer', 'agent-b');
    await ask('kitchen tap washer', 'agent-b', false);
    expect(learned().ignored.rows()).toEqual([]);
    await passOverShed('kitchen tap washer', 'agent-b', 1);
    expect(new Set(learned().ignored.rows().filter((r) => r.node_id === SHED).map((r) => r.term))).toEqual(new Set(['kitchen', 'tap', 'washer']));
    expect(learned().ignored.rows().some((r) => r.node_id === KITCHEN)).toBe(false);
  });

  test('scope: the words of a receipt not every agent could read stay with the agent who asked', async () => {
    // Agent A's retrieval returns its private note: the receipt is not readable by every agent.
    const r = await ask('kitchen tap shed roof plan', 'agent-a');
    expect(r.nodes.map((n) => n.id)).toContain('ffffffff-ffff-4fff-8fff-ffffffffffff');
    await h.engine.services.learning.feedback({ receipt_id: r.receipt_id!, cited: [KITCHEN], agent: 'agent-a' });
    expect(new Set(learned().ignored.rows().map((r) => r.scope))).toEqual(new Set(['agent-a']));
    const now = h.clock.now();
    expect(corpus().ignoredOverlap(['shed', 'roof'], 'agent-a', now)(SHED)).toBeGreaterThan(0);
    expect(corpus().ignoredOverlap(['shed', 'roof'], 'agent-b', now)(SHED)).toBe(0);
    expect(corpus().ignoredOverlap(['shed', 'roof'], null, now)(SHED)).toBe(0);
  });

  test('the incremental index equals one rebuilt from the table, through feedback and a purge', async () => {
    await passOverShed('kitchen tap washer', 'agent-b', 1);
    const c = corpus();
    c.ignoredOverlap(['tap'], null, h.clock.now()); // builds the index now; later changes arrive incrementally
    h.clock.advance(10 * DAY);
    await passOverShed('kitchen tap drips', 'agent-b', 2);
    const rebuilt = () => new IgnoredTermsIndex(learned().ignored.rows()).rows();
    expect(c.ignoredTermsIndexNow().rows()).toEqual(rebuilt());
    const mem = h.engine.services.learning.memory;
    await mem.nodes.tombstone(SHED, h.clock.now());
    expect(await mem.nodes.purgeTombstones(h.clock.now() + 1)).toBe(1);
    expect(rebuilt().some((r) => r.node_id === SHED)).toBe(false);
    expect(c.ignoredTermsIndexNow().rows()).toEqual(rebuilt());
  });
});

test('at the unrelated share 1, feedback records no ignored words: nothing reads them', async () => {
  const shipped = IGNORED_TERMS.unrelated;
  IGNORED_TERMS.unrelated = 1;
  const h = await openHarness(FILES);
  try {
    await h.engine.reconcile();
    const r = await h.engine.services.retrieval.retrieve({ query_text: 'kitchen tap washer', agent_id: 'agent-b' }, { jitter: false, seed: 1 });
    const out = await h.engine.services.learning.feedback({ receipt_id: r.receipt_id!, cited: [KITCHEN], agent: 'agent-b' });
    expect(out.ignored.length).toBeGreaterThan(0);
    expect(out.ignored_terms).toBe(false);
    expect(h.engine.services.learning.memory.learned.ignored.rows()).toEqual([]);
  } finally {
    IGNORED_TERMS.unrelated = shipped;
    await h.engine.close();
  }
});

describe('the overlap (IgnoredTermsIndex)', () => {
  const row = (node_id: string, term: string, weight = 1, at = 0) => ({ scope: '', node_id, term, weight, at });

  test('IDF-weighted: a word every ignored question shared counts little, a rare one a lot', () => {
    // "caroline" is in every note's field (a name in every question); "pottery" only in n1's.
    const index = new IgnoredTermsIndex([row('n1', 'caroline'), row('n1', 'pottery'), row('n2', 'caroline'), row('n2', 'adoption'), row('n3', 'caroline'), row('n3', 'race')]);
    const overlap = index.overlap(['caroline', 'pottery'], null, 0);
    expect(overlap('n1')).toBeCloseTo(1, 9);
    expect(overlap('n2')).toBeGreaterThan(0);
    expect(overlap('n2')).toBeLessThan(0.25);
    expect(overlap('n4')).toBe(0);
    expect(index.overlap([], null, 0)('n1')).toBe(0);
  });

  test('weights decay by the half-life: an ignore one half-life old covers its word half', () => {
    const hl = IGNORED_TERMS.half_life_days * DAY;
    const index = new IgnoredTermsIndex([row('n1', 'tap'), row('n2', 'roof')]);
    expect(index.overlap(['tap'], null, hl)('n1')).toBeCloseTo(0.5, 9);
    expect(index.overlap(['tap'], null, 0)('n1')).toBeCloseTo(1, 9);
  });
});

test('the ignored-terms rows survive a reopen through the journal and keep max_terms per note', async () => {
  const e = await env();
  const { store } = await MemoryStore.open(e);
  await store.learned.ignored.add([{ scope: '', node_id: 'n', term: 'a' }, { scope: '', node_id: 'n', term: 'a' }, { scope: '', node_id: 'n', term: 'b' }, { scope: '', node_id: 'n', term: 'c' }], 1, 30, 2);
  expect(store.learned.ignored.rows().map((r) => [r.term, r.weight])).toEqual([['a', 2], ['b', 1]]);
  await expect(store.learned.ignored.add([{ scope: '', node_id: '', term: 'x' }], 1, 30, 2)).rejects.toMatchObject({ code: 'invalid_argument' });
  const rows = store.learned.ignored.rows();
  const reopened = await MemoryStore.open(e);
  expect(reopened.store.learned.ignored.rows()).toEqual(rows);
  await reopened.store.close();
});

test('the cross-validation harness may vary the unrelated share; it acts on learned state only (shares the baseline)', async () => {
  const { baselineKey, splitPoint, withRetrievalOverrides } = await import('../../bridge/eval/constant-overrides');
  const before = IGNORED_TERMS.unrelated;
  const { retrieval } = splitPoint({ 'ignored_terms.unrelated': 0.3 });
  await withRetrievalOverrides(retrieval, async () => expect(IGNORED_TERMS.unrelated).toBe(0.3));
  expect(IGNORED_TERMS.unrelated).toBe(before);
  expect(baselineKey({ 'ignored_terms.unrelated': 0, 'rerank.ignored_penalty': 1.2 })).toBe('defaults');
});
