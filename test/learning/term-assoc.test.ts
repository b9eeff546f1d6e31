import { countAssociations } from '../../shared/learning/term-assoc';
import type { EngineCorpus } from '../../shared/retrieval/engine-corpus';
import { SCOUT_WEIGHTS } from '../../shared/retrieval/scouts';
import { associatedWords, TERM_ASSOC } from '../../shared/retrieval/term-assoc';
import { MemoryStore, type TermAssocRow } from '../../shared/stores/memory-store';
import { note, openHarness, type Harness } from '../engine/harness';
import { env } from '../stores/helpers';

/**
 * Learned term associations: the words that stood out in the notes used for questions holding a term
 * expand later questions holding it, so a question that shares no word with a note finds it.
 */

const DAY = 86_400_000;

/** The garden note never says "vegetables" or "plot"; the others are about something else. */
const FILES: Record<string, string> = {
  'home/beds.md': note({ id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', title: 'Raised beds' }, 'Tomatoes, courgettes and beans go in the raised beds after the last frost.\n'),
  'home/shed.md': note({ id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', title: 'Shed' }, 'The shed roof leaks at the back corner; felt and battens are in the loft.\n'),
  'work/payments.md': note({ id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', title: 'Payments incident' }, 'Card payments failed for an hour when the processor rotated its certificate.\n'),
  'work/deploys.md': note({ id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', title: 'Deploys' }, 'Deploys go out on Tuesdays after the change review; rollbacks redeploy the last tag.\n'),
  'home/kitchen.md': note({ id: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee', title: 'Kitchen' }, 'The kitchen tap drips; a new washer fixed it last winter. Tomatoes ripen on the sill.\n'),
  'home/market.md': note({ id: '99999999-9999-4999-8999-999999999999', title: 'Market' }, 'The Saturday market sells vegetables, bread and cheese by the station.\n'),
  'agent/agent-a/secret.md': note(
    { id: 'ffffffff-ffff-4fff-8fff-ffffffffffff', title: 'Private plan', access_scope: 'agent_private', namespace: 'agent/agent-a' },
    'Agent A keeps its own plan for vegetables and tomatoes here.\n',
  ),
};
// Filler, so that a question's results are not simply every note.
for (const [i, topic] of ['bicycle chain oil', 'tax return deadline', 'dentist appointment', 'router firmware', 'library books due', 'boiler service'].entries()) {
  FILES[`misc/${i}.md`] = note({ title: topic }, `Notes about the ${topic}.\n`);
}
const BEDS = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
/** Shares no word with the garden note. */
const NEW_QUESTION = 'vegetables for my plot';
const TRAINING = ['vegetables tomatoes', 'which vegetables besides tomatoes', 'tomatoes and other vegetables'];

describe('feedback teaches term associations, and the association scout reads them', () => {
  let h: Harness;
  const shipped = SCOUT_WEIGHTS.association;
  beforeAll(() => {
    SCOUT_WEIGHTS.association = 0.3;
  });
  afterAll(() => {
    SCOUT_WEIGHTS.association = shipped;
  });
  beforeEach(async () => {
    h = await openHarness(FILES);
    await h.engine.reconcile();
  });
  afterEach(async () => {
    await h.engine.close();
  });

  // Without the random scout (its draws vary the results) and, when scoring, without the precedent scout, so a
  // gain is the associations' own and not a whole similar question's.
  const ask = (q: string, agent?: string, opts: { record?: boolean; try?: boolean } = { record: false }) =>
    h.engine.services.retrieval.retrieve(
      { query_text: q, max_context_nodes: 4, ...(agent ? { agent_id: agent } : {}) },
      { jitter: false, seed: 1, ...opts, without: opts.record === false || opts.try ? ['random', 'precedent'] : ['random'] },
    );
  const corpus = (): EngineCorpus => (h.engine.services.retrieval as unknown as { corpus: EngineCorpus }).corpus;
  const rows = (): TermAssocRow[] => h.engine.services.learning.memory.learned.assoc.all();

  /** Retrieves as `agent` (recorded), cites `cite` (which must be among the results). */
  async function use(q: string, agent: string, cite: string, accepted?: boolean): Promise<void> {
    const r = await ask(q, agent, { record: true });
    expect(r.nodes.map((n) => n.id)).toContain(cite);
    await h.engine.services.learning.feedback({ receipt_id: r.receipt_id!, cited: [cite], agent, ...(accepted !== undefined && { accepted }) });
  }

  test('a question sharing no word with a used note finds it through the words learned for its terms', async () => {
    const rank = (r: { nodes: { id: string }[] }): number => {
      const i = r.nodes.findIndex((n) => n.id === BEDS);
      return i < 0 ? Infinity : i;
    };
    const before = await ask(NEW_QUESTION);
    // No shared word: only the hashing vectors' noise, if anything, brings it in, below the market note.
    expect(before.nodes.find((n) => n.id === BEDS)?.scouts ?? []).not.toContain('lexical');
    expect(rank(before)).toBeGreaterThan(0);
    for (const q of TRAINING) await use(q, 'agent-b', BEDS);

    const after = await ask(NEW_QUESTION);
    expect(rank(after)).toBeLessThan(rank(before));
    const beds = after.nodes.find((n) => n.id === BEDS);
    expect(beds).toBeDefined();
    expect(beds!.scouts).toContain('association');
    expect(beds!.reasons.join(' ')).toMatch(/learned from earlier questions: "vegetables" → [a-z, ]*(courgettes|beans|raised|beds|frost)/);
    // An unrelated question has no learned words and no association hits.
    const unrelated = await ask('card processor certificate');
    expect(unrelated.nodes.some((n) => n.scouts.includes('association'))).toBe(false);
  });

  test('silent before any feedback: the same ranking and scores as without the scout', async () => {
    const plain = await ask(NEW_QUESTION);
    const without = await h.engine.services.retrieval.retrieve({ query_text: NEW_QUESTION, max_context_nodes: 4 }, { jitter: false, seed: 1, record: false, without: ['random', 'precedent', 'association'] });
    expect(plain.nodes.map((n) => [n.id, n.score])).toEqual(without.nodes.map((n) => [n.id, n.score]));
    expect(corpus().termAssoc(['vegetables'], null)).toEqual([]);
    expect(plain.scouts.association?.hits ?? 0).toBe(0);
  });

  test('the same question three times with no feedback in between ranks and scores identically', async () => {
    for (const q of TRAINING) await use(q, 'agent-b', BEDS);
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push((await ask(NEW_QUESTION, 'agent-b', { record: true })).nodes.map((n) => [n.id, n.score]));
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
  });

  test('scope: a receipt not every agent could read teaches only the agent who asked', async () => {
    // Agent A's retrievals return its private note: no receipt of them is readable by every agent.
    for (const q of TRAINING) {
      const r = await ask(q, 'agent-a', { record: true });
      expect(r.nodes.map((n) => n.id)).toContain('ffffffff-ffff-4fff-8fff-ffffffffffff');
      await h.engine.services.learning.feedback({ receipt_id: r.receipt_id!, cited: [BEDS], agent: 'agent-a' });
    }
    expect(rows().length).toBeGreaterThan(0);
    expect(new Set(rows().map((r) => r.scope))).toEqual(new Set(['agent-a']));
    expect(associatedWords(corpus().termAssoc(['vegetables'], 'agent-a'), ['vegetables']).length).toBeGreaterThan(0);
    // Agent B and the person never see agent A's words, in ranking or in reasons.
    expect(corpus().termAssoc(['vegetables'], 'agent-b')).toEqual([]);
    expect(corpus().termAssoc(['vegetables'], null)).toEqual([]);
    for (const agent of ['agent-b', undefined]) {
      const r = await ask(NEW_QUESTION, agent);
      expect(r.nodes.some((n) => n.scouts.includes('association') || n.reasons.some((x) => x.includes('learned from earlier questions')))).toBe(false);
    }
    expect((await ask(NEW_QUESTION, 'agent-a')).nodes.some((n) => n.scouts.includes('association'))).toBe(true);
  });

  test('a try teaches nothing (no receipt to give feedback on); a rejected output teaches nothing', async () => {
    const t = await ask(TRAINING[0], 'agent-b', { try: true });
    expect(t.try).toBe(true);
    expect(t.receipt_id).toBeNull();
    for (const q of TRAINING) await use(q, 'agent-b', BEDS, false);
    expect(rows()).toEqual([]);
    expect((await ask(NEW_QUESTION)).nodes.some((n) => n.scouts.includes('association'))).toBe(false);
  });

  test('kept across a reopen of the engine', async () => {
    for (const q of TRAINING) await use(q, 'agent-b', BEDS);
    const learned = rows();
    expect(learned.length).toBeGreaterThan(0);
    await h.engine.close();
    h = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
    await h.engine.reconcile();
    expect(rows()).toEqual(learned);
    const r = await h.engine.services.retrieval.retrieve({ query_text: NEW_QUESTION, max_context_nodes: 4 }, { jitter: false, seed: 1, record: false, without: ['random', 'precedent'] });
    expect(r.nodes.find((n) => n.id === BEDS)?.scouts).toContain('association');
  });
});

test('with the scout off (as shipped), feedback records no associations: nothing reads them', async () => {
  expect(SCOUT_WEIGHTS.association).toBe(0);
  const h = await openHarness(FILES);
  await h.engine.reconcile();
  const r = await h.engine.services.retrieval.retrieve({ query_text: TRAINING[0], agent_id: 'agent-b' }, { jitter: false, seed: 1 });
  const out = await h.engine.services.learning.feedback({ receipt_id: r.receipt_id!, cited: [BEDS], agent: 'agent-b' });
  expect(out.used).toEqual([BEDS]);
  expect(out.term_assoc).toBe(false);
  expect(h.engine.services.learning.memory.learned.assoc.all()).toEqual([]);
  await h.engine.close();
});

describe('counting', () => {
  const words = (s: string): Set<string> => new Set(s.split(' '));

  test('a term counts notes shown and used; a word enters when a used note holds it, then counts its showings', () => {
    const first = countAssociations('', ['car'], [], [{ words: words('vehicle engine'), used: true }, { words: words('engine carpet'), used: false }], 1);
    expect(first).toEqual([{ scope: '', term: 'car', shown: 2, used: 1, words: { vehicle: [1, 1], engine: [2, 1] }, at: 1 }]);
    const second = countAssociations('', ['car'], first, [{ words: words('vehicle carpet'), used: false }], 2);
    expect(second[0]).toMatchObject({ shown: 3, used: 1, words: { vehicle: [2, 1], engine: [2, 1] }, at: 2 });
    // The term itself is no association of itself.
    expect(countAssociations('', ['car'], [], [{ words: words('car vehicle'), used: true }], 1)[0].words).toEqual({ vehicle: [1, 1] });
  });

  test('a term keeps at most max_words_per_term words, those of highest value', () => {
    const many = Array.from({ length: TERM_ASSOC.max_words_per_term + 10 }, (_, i) => `w${i}`);
    const rows = countAssociations('', ['t'], [], [{ words: new Set(many), used: true }, { words: new Set(many.slice(0, 10)), used: false }], 1);
    const kept = Object.keys(rows[0].words);
    expect(kept).toHaveLength(TERM_ASSOC.max_words_per_term);
    // The ten also shown unused have the lowest lift: they go first.
    expect(kept.some((w) => many.slice(0, 10).includes(w))).toBe(false);
  });

  test('expansion words: lift against the term, enough evidence, not the query words, strongest first', () => {
    const row = (term: string, shown: number, used: number, w: Record<string, [number, number]>): TermAssocRow => ({ scope: '', term, shown, used, words: w, at: 0 });
    const rows = [row('car', 20, 4, { vehicle: [4, 4], engine: [12, 3], red: [1, 1], car2: [3, 3], plot: [4, 4] }), row('plot', 2, 2, { soil: [2, 2] })];
    const got = associatedWords(rows, ['car', 'plot']);
    // engine: used no more often than the term's notes; red: shown once; plot: a query word; soil: "plot" shown too few times.
    expect(got.map((a) => a.word)).toEqual(['vehicle', 'car2']);
    expect(got[0]).toMatchObject({ word: 'vehicle', term: 'car' });
    expect(associatedWords(rows, ['bike'])).toEqual([]);
  });
});

describe('the term_assoc rows (memory.sqlite)', () => {
  const row = (term: string, shown: number, at: number, scope = ''): TermAssocRow => ({ scope, term, shown, used: 1, words: { x: [1, 1] }, at });

  test('survive a reopen through the journal', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    await store.learned.assoc.put([row('a', 3, 1), row('b', 5, 2, 'agent-a')], 10);
    const all = store.learned.assoc.all();
    expect(all).toHaveLength(2);
    const reopened = await MemoryStore.open(e);
    expect(reopened.store.learned.assoc.all()).toEqual(all);
    expect(reopened.store.learned.assoc.rows(['a', 'b'], [''])).toEqual([all[0]]);
    await reopened.store.close();
  });

  test('a scope keeps at most max terms (the fewest shown go); bad rows are refused whole', async () => {
    const { store } = await MemoryStore.open(await env());
    await store.learned.assoc.put([row('a', 9, 1), row('b', 2, 1), row('c', 5, 1), row('z', 1, 1, 'agent-a')], 2);
    expect(store.learned.assoc.all().map((r) => `${r.scope}/${r.term}`)).toEqual(['/a', '/c', 'agent-a/z']);
    await store.learned.assoc.put([row('d', 1, 2)], 2);
    // Weaker than every row kept: it does not enter.
    expect(store.learned.assoc.all().map((r) => r.term)).toEqual(['a', 'c', 'z']);
    await store.learned.assoc.put([row('d', 6, 2)], 2);
    expect(store.learned.assoc.all().map((r) => r.term)).toEqual(['a', 'd', 'z']);
    await expect(store.learned.assoc.put([row('e', 1, 3), { ...row('f', 1, 3), used: 2 }], 10)).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(store.learned.assoc.put([{ ...row('g', 1, 3), words: { y: [2, 1] } }], 10)).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(store.learned.assoc.all().map((r) => r.term)).toEqual(['a', 'd', 'z']);
    await store.close();
  });

  test('a words value that is not word counts (a hand edit) reads as no words', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    await store.learned.assoc.put([row('a', 3, 1), row('b', 3, 1)], 10);
    const db = (store as unknown as { db: { run(sql: string, p?: unknown[]): void } }).db;
    db.run("UPDATE term_assoc SET words = ? WHERE term = 'a'", ['{not json']);
    db.run("UPDATE term_assoc SET words = ? WHERE term = 'b'", ['{"x":[1,1],"y":"bad"}']);
    expect(store.learned.assoc.all().map((r) => r.words)).toEqual([{}, { x: [1, 1] }]);
    await store.close();
  });

  test('decay forgets terms seldom shown and long not counted', async () => {
    const { store } = await MemoryStore.open(await env());
    await store.learned.assoc.put([row('old', TERM_ASSOC.prune_below - 1, 0), row('oft', TERM_ASSOC.prune_below, 0), row('new', 1, 200 * DAY)], 10);
    expect(await store.learned.assoc.prune(200 * DAY - TERM_ASSOC.max_age_days * DAY, TERM_ASSOC.prune_below)).toBe(1);
    expect(store.learned.assoc.all().map((r) => r.term)).toEqual(['new', 'oft']);
    await store.close();
  });
});
