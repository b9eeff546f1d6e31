import { RECEIPTS_FILE } from '../../shared/retrieval/receipts';
import { ALL_SCOUTS, SCOUT_NAMES } from '../../shared/retrieval/scouts';
import type { QueryContext } from '../../shared/retrieval/types';
import type { MemoryEngine } from '../../shared/engine';
import { note, openHarness, type Harness } from '../engine/harness';
import { codeOf } from '../twins/error-code';

/** engine.services.retrieval.retrieve end to end over the in-memory twins: the result, its side effects, and bad input. */
const files: Record<string, string> = {
  'project/db/Connection pool sizing.md': note({ title: 'Connection pool sizing', tags: ['postgres', 'pool'] }, 'How many connections each service gets. See [[Pool exhaustion]].'),
  'project/db/Pool exhaustion.md': note(
    { title: 'Pool exhaustion', tags: ['postgres', 'pool'] },
    'Connection pool exhaustion: the connection pool ran out of connections, every connection busy, pool sizing too small for the connection load.',
  ),
  'project/db/Timeouts.md': note({ title: 'Timeouts' }, 'Connection timeouts appear when the pool is exhausted.'),
  'project/api/Rate limits.md': note({ title: 'Rate limits' }, 'The API allows 100 requests per minute per client.'),
  'notes/Japanese.md': note({ title: '接続プール' }, '接続プールが枯渇すると、リクエストは待たされる。'),
  'notes/Russian.md': note({ title: 'Пул соединений' }, 'Когда пул соединений исчерпан, запросы ждут.'),
  'misc/Garden.md': note({ title: 'Garden' }, 'Tomatoes need sun and water.'),
};

let h: Harness;
let engine: MemoryEngine;
const idOf = (path: string): string => engine.services.notes.note(path)!.nodeId;

beforeEach(async () => {
  h = await openHarness(files);
  engine = h.engine;
  await engine.reconcile();
});

afterEach(() => engine.close());

const ask = (query_text: string, over: Partial<QueryContext> = {}) => engine.services.retrieval.retrieve({ query_text, agent_id: 'alice', ...over }, { jitter: false });

test('the result: ranked nodes with id, path, title, score, reasons, scouts and terms; temperature, terrace, receipt id', async () => {
  const r = await ask('connection pool exhaustion');
  expect(r.nodes.length).toBeGreaterThan(0);
  expect(r.nodes.length).toBeLessThanOrEqual(10);
  for (const n of r.nodes) {
    expect(n).toEqual(
      expect.objectContaining({ id: expect.any(String), path: expect.any(String), title: expect.any(String), score: expect.any(Number), note_type: 'observation' }),
    );
    expect(engine.services.notes.note(n.id)!.path).toBe(n.path);
    expect(n.reasons.length).toBeGreaterThan(0);
    for (const reason of n.reasons) expect(typeof reason).toBe('string');
    expect(n.scouts.length).toBeGreaterThan(0);
    expect([...n.scouts].sort()).toEqual(n.scouts);
    for (const s of n.scouts) expect(SCOUT_NAMES).toContain(s);
    expect(Object.keys(n.terms).sort()).toEqual(
      ['base', 'concept_damping', 'graph_affinity', 'ignored_penalty', 'intent', 'misleading_penalty', 'scope_affinity', 'scouts', 'spaced_repetition', 'tag_affinity', 'type_prior'].sort(),
    );
    expect(Object.keys(n.terms.scouts).sort()).toEqual(n.scouts);
  }
  const scores = r.nodes.map((n) => n.score);
  expect(r.nodes[0].path).toBe('project/db/Pool exhaustion.md');
  expect(scores[0]).toBe(Math.max(...scores));
  expect(r.temperature).toBeGreaterThanOrEqual(0);
  expect(r.temperature).toBeLessThanOrEqual(1);
  expect([0, 1, 2]).toContain(r.terrace_reached);
  expect(r.terrace2).toEqual({ wanted: expect.any(Boolean), why: expect.any(String), outcome: expect.any(String) });
  expect(typeof r.receipt_id).toBe('string');
  expect(r).toMatchObject({ query_class: 'lookup', intent: null, conflicts: [] });
  // every scout reports its telemetry
  expect(Object.keys(r.scouts).sort()).toEqual(ALL_SCOUTS.map((s) => s.name).sort());
});

test('an exact title surfaces that note first, even when another note matches its words better', async () => {
  const r = await ask('Connection pool sizing');
  expect(r.nodes[0].path).toBe('project/db/Connection pool sizing.md');
  expect(r.nodes[0].scouts).toContain('exact');
  expect(r.nodes[0].reasons).toContain("the query is this note's title or alias");
  expect(r.nodes.map((n) => n.path)).toContain('project/db/Pool exhaustion.md');
  // by id too
  expect((await ask(idOf('misc/Garden.md'))).nodes[0].path).toBe('misc/Garden.md');
});

test('retrieval bumps retrieval_count and last_retrieved_at of the final nodes, and nothing else', async () => {
  const exhaustion = idOf('project/db/Pool exhaustion.md');
  await engine.services.learning.memory.stats.update(exhaustion, { salience: 0.7, retrieval_count: 4, ignored_count: 1 });
  h.clock.advance(60_000);
  const all = engine.services.notes.notes().map((n) => n.nodeId);
  const before = new Map(all.map((id) => [id, engine.services.learning.memory.stats.get(id)]));
  const counts = engine.services.learning.memory.counts();

  const r = await ask('connection pool exhaustion', { max_context_nodes: 3 });
  const final = new Set(r.nodes.map((n) => n.id));
  expect(final.has(exhaustion)).toBe(true);
  for (const id of all) {
    const was = before.get(id)!;
    const now = engine.services.learning.memory.stats.get(id);
    if (final.has(id)) expect(now).toEqual({ ...was, retrieval_count: was.retrieval_count + 1, last_retrieved_at: h.clock.now() });
    else expect(now).toEqual(was);
  }
  expect(engine.services.learning.memory.stats.get(exhaustion)).toMatchObject({ salience: 0.7, retrieval_count: 5, ignored_count: 1 });
  // no edges, no co-activation, no new nodes: learning moves only on feedback
  expect(engine.services.learning.memory.counts()).toMatchObject({ nodes: counts.nodes, edges: counts.edges, coactivation: counts.coactivation });
});

test('record: false writes nothing: no receipt, no stats', async () => {
  const all = engine.services.notes.notes().map((n) => n.nodeId);
  const before = all.map((id) => engine.services.learning.memory.stats.get(id));
  const r = await engine.services.retrieval.retrieve({ query_text: 'connection pool', agent_id: 'alice' }, { record: false });
  expect(r.nodes.length).toBeGreaterThan(0);
  expect(r.receipt_id).toBeNull();
  expect(all.map((id) => engine.services.learning.memory.stats.get(id))).toEqual(before);
  expect(await h.blobs.read(RECEIPTS_FILE)).toBeNull();
  expect((await engine.services.retrieval.receipts.query()).receipts).toEqual([]);
});

test('a try teaches nothing: no receipt, no stat (telemetry included), nothing a feedback could attach to; the result says so', async () => {
  const all = engine.services.notes.notes().map((n) => n.nodeId);
  const before = all.map((id) => engine.services.learning.memory.stats.get(id));
  const counts = engine.services.learning.memory.counts();
  const tried = await engine.services.retrieval.retrieve({ query_text: 'connection pool', agent_id: 'alice' }, { try: true, jitter: false });
  expect(tried).toMatchObject({ try: true, receipt_id: null });
  expect(tried.nodes.length).toBeGreaterThan(0);
  expect(all.map((id) => engine.services.learning.memory.stats.get(id))).toEqual(before);
  expect(engine.services.learning.memory.counts()).toEqual(counts);
  expect((await engine.services.retrieval.receipts.query()).receipts).toEqual([]);
  // The same query for real ranks the same: trying it changed nothing.
  const real = await engine.services.retrieval.retrieve({ query_text: 'connection pool', agent_id: 'alice' }, { jitter: false });
  expect(real.try).toBeUndefined();
  expect(real.nodes).toEqual(tried.nodes);
  expect(typeof real.receipt_id).toBe('string');
  const empty = await engine.services.retrieval.retrieve({ query_text: '   ', agent_id: 'alice' }, { try: true });
  expect(empty).toMatchObject({ try: true, receipt_id: null, nodes: [] });
});

test('receipts are written and queryable by agent, task, node and time', async () => {
  const t0 = h.clock.now();
  // one node each, so that --node tells the receipts apart on a small vault
  const a = await ask('connection pool exhaustion', { agent_id: 'alice', task_id: 'T-1', max_context_nodes: 1 });
  h.clock.advance(3_600_000);
  const b = await ask('rate limits', { agent_id: 'bob', task_id: 'T-2', query_class: 'Debug', intent: 'fact_check', max_context_nodes: 1 });
  h.clock.advance(3_600_000);
  const c = await ask('garden tomatoes', { agent_id: 'alice', max_context_nodes: 1 });
  const ids = (rs: { receipt_id: string }[]) => rs.map((x) => x.receipt_id);

  expect(ids((await engine.services.retrieval.receipts.query()).receipts)).toEqual([c.receipt_id, b.receipt_id, a.receipt_id]);
  expect(ids((await engine.services.retrieval.receipts.query({ agent: 'alice' })).receipts)).toEqual([c.receipt_id, a.receipt_id]);
  expect(ids((await engine.services.retrieval.receipts.query({ task: 'T-2' })).receipts)).toEqual([b.receipt_id]);
  expect(b.nodes.map((n) => n.path)).toEqual(['project/api/Rate limits.md']);
  expect(ids((await engine.services.retrieval.receipts.query({ node: idOf('project/api/Rate limits.md') })).receipts)).toEqual([b.receipt_id]);
  expect(ids((await engine.services.retrieval.receipts.query({ since: t0 + 3_600_000 })).receipts)).toEqual([c.receipt_id, b.receipt_id]);
  expect(ids((await engine.services.retrieval.receipts.query({ since: '30m' })).receipts)).toEqual([c.receipt_id]);

  const rb = (await engine.services.retrieval.receipts.get(b.receipt_id!))!;
  expect(rb).toMatchObject({
    agent_id: 'bob',
    task_id: 'T-2',
    query_text: 'rate limits',
    query_class: 'debug',
    intent: 'fact_check',
    namespace_filter: [],
    temperature: b.temperature,
    terrace_reached: b.terrace_reached,
    terrace2: b.terrace2,
    ts: new Date(t0 + 3_600_000).toISOString(),
  });
  expect(rb.final_nodes).toEqual(b.nodes.map((n) => ({ id: n.id, path: n.path, title: n.title, score: n.score, scouts: n.scouts, terms: n.terms })));
  expect(rb.candidates).toEqual(expect.arrayContaining(b.nodes.map((n) => n.id)));
});

describe('odd input returns cleanly', () => {
  test('an empty vault', async () => {
    const empty = await openHarness({});
    await empty.engine.reconcile();
    const r = await empty.engine.services.retrieval.retrieve({ query_text: 'anything at all', agent_id: 'alice' });
    expect(r.nodes).toEqual([]);
    expect(r.conflicts).toEqual([]);
    expect(r.temperature).toBeGreaterThanOrEqual(0);
    expect(r.temperature).toBeLessThanOrEqual(1);
    await empty.engine.close();
  });

  test.each(['', '   ', '\n\t'])('an empty query %j', async (q) => {
    const r = await ask(q);
    expect(r.nodes).toEqual([]);
    expect(r.terrace_reached).toBe(0);
  });

  test('a query of stopwords and punctuation only', async () => {
    const r = await ask('the of and ?!…');
    expect(Array.isArray(r.nodes)).toBe(true);
    expect(r.temperature).toBeGreaterThanOrEqual(0);
  });

  test('a 10,000-character query', async () => {
    const long = 'connection pool exhaustion '.repeat(400).slice(0, 10_000);
    expect(long).toHaveLength(10_000);
    const r = await ask(long);
    expect(r.nodes[0].path).toBe('project/db/Pool exhaustion.md');
    const receipt = (await engine.services.retrieval.receipts.get(r.receipt_id!))!;
    expect(receipt.query_text.length).toBeLessThanOrEqual(10_000);
  });

  test.each([
    ['Japanese', '接続プール 枯渇', 'notes/Japanese.md'],
    ['Cyrillic', 'пул соединений', 'notes/Russian.md'],
  ])('a query in %s finds the note written in it', async (_script, q, path) => {
    const r = await ask(q);
    expect(r.nodes[0].path).toBe(path);
  });

  test('a query that matches nothing', async () => {
    const r = await ask('zzqxj vvkwp');
    expect(Array.isArray(r.nodes)).toBe(true);
    for (const n of r.nodes) expect(n.scouts).not.toContain('lexical');
  });
});

describe('bad arguments fail with invalid_argument and write nothing', () => {
  test.each([
    ['max_context_nodes 0', { max_context_nodes: 0 }],
    ['max_context_nodes 51', { max_context_nodes: 51 }],
    ['max_context_nodes 2.5', { max_context_nodes: 2.5 }],
    ['max_context_nodes "5"', { max_context_nodes: '5' }],
    ['an unknown intent', { intent: 'bogus' }],
    ['a non-string query (number)', { query_text: 42 }],
    ['a non-string query (null)', { query_text: null }],
    ['a missing query', { query_text: undefined }],
    ['namespace_filter as a string', { namespace_filter: 'project' }],
    ['namespace_filter with a number', { namespace_filter: ['project', 3] }],
    ['a non-string agent_id', { agent_id: 7 }],
    ['a non-string query_class', { query_class: ['debug'] }],
  ])('%s', async (_what, over) => {
    const ctx = { query_text: 'connection pool', agent_id: 'alice', ...over } as unknown as QueryContext;
    expect(await codeOf(engine.services.retrieval.retrieve(ctx))).toBe('invalid_argument');
    expect(await h.blobs.read(RECEIPTS_FILE)).toBeNull();
  });

  test('not an object at all', async () => {
    expect(await codeOf(engine.services.retrieval.retrieve(null as unknown as QueryContext))).toBe('invalid_argument');
    expect(await codeOf(engine.services.retrieval.retrieve('connection pool' as unknown as QueryContext))).toBe('invalid_argument');
  });

  test('the limits themselves are fine: 1 and 50 nodes', async () => {
    expect((await ask('connection pool', { max_context_nodes: 1 })).nodes).toHaveLength(1);
    expect((await ask('connection pool', { max_context_nodes: 50 })).nodes.length).toBeLessThanOrEqual(50);
  });
});
