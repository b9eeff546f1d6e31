import { failure } from '../twins/error-code';
import { note } from '../engine/harness';
import type { InterpretRequest, Interpretation, Interpreter } from '../../shared/retrieval/terrace2';
import type { Receipt } from '../../shared/retrieval/types';
import type { ToolCaller } from '../../shared/tools/types';
import { AGENT, FIXTURE, HUMAN, INDEX_ID, OTHER, POOL_ID, SECRET_ID, openTools, type ToolHarness } from './fixture';

/**
 * The LCMA tools built on retrieval (lithos_retrieve, lithos_receipts, lithos_node_stats), through the
 * dispatcher as the MCP server calls them, on a real engine over the in-memory twins.
 */

const POOL = 'project/atlas/Pool sizing.md';
const SECRET = 'agent/agent-b/Secret plan.md';
const POOLING = 'shared/concepts/Connection pooling.md';
const NOBODY: ToolCaller = { kind: 'agent', agent_id: null };

let t: ToolHarness;
beforeEach(async () => {
  t = await openTools();
});
afterEach(async () => {
  await t.engine.close();
});

const pathsOf = (r: { nodes: { path: string }[] }): string[] => r.nodes.map((n) => n.path);

/** An Interpreter that answers with a fixed selection and remembers what it was asked. */
class CannedInterpreter implements Interpreter {
  asked: InterpretRequest[] = [];
  constructor(private readonly answer: (req: InterpretRequest) => Interpretation) {}
  interpret(req: InterpretRequest): Promise<Interpretation> {
    this.asked.push(req);
    return Promise.resolve(this.answer(req));
  }
}

describe('lithos_retrieve', () => {
  test('returns ranked notes with reasons, scouts and score terms, and a receipt_id that lithos_receipts finds', async () => {
    const r = await t.call('lithos_retrieve', { query_text: 'connection pool' });
    expect(pathsOf(r)).toEqual([POOL, 'project/atlas/Index.md', POOLING]);
    expect(r.nodes[0]).toEqual(
      expect.objectContaining({ id: POOL_ID, title: 'Pool sizing', note_type: 'observation', namespace: 'project/atlas', score: expect.any(Number), reasons: expect.arrayContaining([expect.any(String)]) }),
    );
    expect(r.nodes[0].scouts).toContain('lexical');
    expect(r.nodes[0].terms).toEqual(expect.objectContaining({ base: expect.any(Number), type_prior: expect.any(Number), scouts: expect.any(Object) }));
    // A vault of a handful of notes gives the query little to stand out from: it may run hot and want terrace 2.
    expect(r).toMatchObject({ query_class: 'lookup', intent: null, terrace_reached: 1, terrace2: { wanted: expect.any(Boolean), outcome: expect.any(String) }, conflicts: [] });
    expect(r.temperature).toBeGreaterThanOrEqual(0);
    expect(r.receipt_id).toEqual(expect.any(String));
    expect(r.spaces).toEqual([{ id: 'hash-ngram-v2-384', semantic: false }]);

    const stored = await t.call('lithos_receipts', { receipt_id: r.receipt_id });
    expect(stored.receipts).toHaveLength(1);
    expect(stored.receipts[0]).toMatchObject({ receipt_id: r.receipt_id, agent_id: 'agent-a', task_id: null, query_text: 'connection pool', query_class: 'lookup' });
    expect(stored.receipts[0].final_nodes.map((n: { id: string }) => n.id)).toEqual(r.nodes.map((n: { id: string }) => n.id));
  });

  test('passes every QueryContext field: namespace_filter (one or many), task_id, query_class, intent, max_context_nodes, surface_conflicts', async () => {
    const one = await t.call('lithos_retrieve', { query_text: 'connection pool', namespace_filter: 'shared' });
    expect(pathsOf(one)).toEqual([POOLING]);
    const many = await t.call('lithos_retrieve', { query_text: 'connection pool', namespace_filter: ['shared', 'project/atlas'], max_context_nodes: 2, intent: 'fact_check', query_class: 'Debug', task_id: 'task-7', surface_conflicts: false });
    expect(many.nodes).toHaveLength(2);
    expect(many).toMatchObject({ intent: 'fact_check', query_class: 'debug' });
    const receipt = (await t.engine.services.retrieval.receipts.get(many.receipt_id))!;
    expect(receipt).toMatchObject({ task_id: 'task-7', namespace_filter: ['shared', 'project/atlas'], intent: 'fact_check', query_class: 'debug' });
  });

  test('registers the calling agent and bumps retrieval_count of the notes returned (nothing else)', async () => {
    await t.call('lithos_retrieve', { query_text: 'nightly batch connections', max_context_nodes: 1 });
    expect(t.engine.services.coordination.agent('agent-a')).not.toBeNull();
    const s = await t.call('lithos_node_stats', { id: POOL_ID });
    expect(s).toMatchObject({ retrieval_count: 1, last_retrieved_at: new Date(t.clock.now()).toISOString(), last_used_at: null, salience: 0.5 });
    expect((await t.call('lithos_node_stats', { id: INDEX_ID })).retrieval_count).toBe(0);
  });

  test('shows an agent only what it may see: another agent\'s private note never appears, its owner gets it', async () => {
    const a = await t.call('lithos_retrieve', { query_text: 'zebra secret connection pool', max_context_nodes: 50 });
    expect(pathsOf(a)).not.toContain(SECRET);
    expect(a.nodes.map((n: { id: string }) => n.id)).not.toContain(SECRET_ID);
    const receipt = (await t.engine.services.retrieval.receipts.get(a.receipt_id))!;
    expect(receipt.candidates).not.toContain(SECRET_ID);
    expect(pathsOf(await t.call('lithos_retrieve', { query_text: 'zebra secret' }, OTHER))[0]).toBe(SECRET);
    expect(pathsOf(await t.call('lithos_retrieve', { query_text: 'zebra secret' }, HUMAN))[0]).toBe(SECRET);
    // An agent without an identity sees shared and project notes only.
    expect(pathsOf(await t.call('lithos_retrieve', { query_text: 'zebra secret', max_context_nodes: 50 }, NOBODY))).not.toContain(SECRET);
  });

  test('terrace 2: a design query on a lukewarm scan is wanted but skipped without an interpreter, and says so', async () => {
    const r = await t.call('lithos_retrieve', { query_text: 'connection pool', query_class: 'design' });
    expect(r.temperature).toBeGreaterThan(0.25);
    expect(r.terrace_reached).toBe(1);
    expect(r.terrace2).toEqual({ wanted: true, why: expect.stringContaining('design query with temperature'), outcome: 'skipped: no interpreter configured (MCP sampling unavailable or not wired)' });
  });

  test('terrace 2: with an interpreter configured, its selection and bridges become the result', async () => {
    const interp = new CannedInterpreter(() => ({ selected: [POOLING_ID(), POOL_ID], bridges: [{ a: POOL_ID, b: POOLING_ID(), why: 'same pool' }], confidence: 0.9, follow_up_queries: [] }));
    t.engine.services.retrieval.setInterpreter(interp);
    const r = await t.call('lithos_retrieve', { query_text: 'connection pool', query_class: 'design' });
    expect(interp.asked).toHaveLength(1);
    expect(interp.asked[0]).toMatchObject({ query: 'connection pool', query_class: 'design' });
    expect(pathsOf(r)).toEqual([POOLING, POOL]);
    expect(r.terrace_reached).toBe(2);
    expect(r.terrace2.outcome).toBe('done: 2 nodes selected, confidence 0.90');
    expect(r.nodes[1].reasons).toContain('interpreter: bridge to "Connection pooling" — same pool');
  });

  const BAD: [label: string, field: string, args: unknown][] = ([
    [{}, 'query_text'],
    [{ query_text: '   ' }, 'query_text'],
    [{ query_text: 7 }, 'query_text'],
    [{ query_text: 'x'.repeat(10_001) }, 'query_text'],
    [{ query_text: 'pool', max_context_nodes: 0 }, 'max_context_nodes'],
    [{ query_text: 'pool', max_context_nodes: 51 }, 'max_context_nodes'],
    [{ query_text: 'pool', max_context_nodes: 2.5 }, 'max_context_nodes'],
    [{ query_text: 'pool', intent: 'wander' }, 'intent'],
    [{ query_text: 'pool', namespace_filter: [''] }, 'namespace_filter'],
    [{ query_text: 'pool', namespace_filter: 3 }, 'namespace_filter'],
    [{ query_text: 'pool', surface_conflicts: 'yes' }, 'surface_conflicts'],
    [{ query_text: 'pool', query_class: '' }, 'query_class'],
    [{ query_text: 'pool', task_id: '' }, 'task_id'],
    [{ query_text: 'pool', k: 5 }, '(arguments)'],
  ] as [unknown, string][]).map(([args, field]) => [JSON.stringify(args).slice(0, 60), field, args]);
  test.each(BAD)('%s is invalid_argument naming %s; no receipt is written', async (_label, field, args) => {
    const err = await failure(t.call('lithos_retrieve', args));
    expect(err.code).toBe('invalid_argument');
    expect((err.data.issues as { field: string }[]).map((i) => i.field.replace(/\[\d+\]$/, ''))).toContain(field);
    expect((await t.engine.services.retrieval.receipts.query()).receipts).toEqual([]);
  });
});

/** The id of the shared concept note (the fixture does not set one: the registry assigns it). */
function POOLING_ID(): string {
  return t.engine.services.notes.note(POOLING)!.nodeId;
}

describe('lithos_receipts', () => {
  /** A receipt written straight to the log, as retrieve would (for cases retrieval cannot be steered into). */
  function receipt(over: Partial<Receipt> & { nodes: string[] }): Receipt {
    const { nodes, ...rest } = over;
    const terms = { base: 0.5, type_prior: 0.5, scope_affinity: 0.5, graph_affinity: 0, spaced_repetition: 0, ignored_penalty: 0, misleading_penalty: 0, concept_damping: 0, tag_affinity: 0, intent: 0, scouts: {} };
    return {
      receipt_id: `r-${Math.random().toString(36).slice(2)}`,
      ts: new Date(t.clock.now()).toISOString(),
      agent_id: 'agent-b',
      task_id: null,
      query_text: 'q',
      query_class: 'lookup',
      intent: null,
      namespace_filter: [],
      temperature: 0.2,
      coherence: 0.8,
      terrace_reached: 1,
      terrace2: { wanted: false, why: 'cold', outcome: 'not wanted' },
      candidates: nodes,
      final_nodes: nodes.map((id) => ({ id, score: 0.5, scouts: ['lexical'], terms })),
      conflicts: [],
      scouts: {},
      ...rest,
    };
  }

  test('newest first, filtered by agent, task, node (id or path), receipt_id, since/until and limit', async () => {
    const first = await t.call('lithos_retrieve', { query_text: 'connection pool', task_id: 'task-1' });
    t.clock.advance(3_600_000);
    const second = await t.call('lithos_retrieve', { query_text: 'missing index latency', max_context_nodes: 1 }, OTHER);
    const all = await t.call('lithos_receipts', {});
    expect(all.receipts.map((r: Receipt) => r.receipt_id)).toEqual([second.receipt_id, first.receipt_id]);
    expect(all.skipped_lines).toBe(0);
    const ids = async (args: Record<string, unknown>) => (await t.call('lithos_receipts', args)).receipts.map((r: Receipt) => r.receipt_id);
    expect(await ids({ agent: 'agent-a' })).toEqual([first.receipt_id]);
    expect(await ids({ task: 'task-1' })).toEqual([first.receipt_id]);
    expect(await ids({ node: POOLING })).toEqual([first.receipt_id]);
    expect(await ids({ node: second.nodes[0].id })).toEqual([second.receipt_id, first.receipt_id]);
    expect(await ids({ limit: 1 })).toEqual([second.receipt_id]);
    expect(await ids({ since: '30m' })).toEqual([second.receipt_id]);
    expect(await ids({ until: new Date(t.clock.now() - 60_000).toISOString() })).toEqual([first.receipt_id]);
    expect(await ids({ receipt_id: 'no-such-receipt' })).toEqual([]);
  });

  test('an agent sees its own receipts without the notes it may no longer see', async () => {
    const r = await t.call('lithos_retrieve', { query_text: 'connection pool' });
    expect(r.nodes.map((n: { id: string }) => n.id)).toContain(POOL_ID);
    // The note becomes agent-b's private note after the retrieval.
    t.vault.put(POOL, note({ id: POOL_ID, title: 'Pool sizing', access_scope: 'agent_private', author: 'agent-b' }, 'The connection pool was too small.\n'), false);
    await t.engine.reconcile();
    const mine = (await t.call('lithos_receipts', {})).receipts[0];
    expect(mine.receipt_id).toBe(r.receipt_id);
    expect(mine.final_nodes.map((n: { id: string }) => n.id)).not.toContain(POOL_ID);
    expect(mine.candidates).not.toContain(POOL_ID);
    expect(mine.final_nodes).toHaveLength(r.nodes.length - 1);
    // The person and the new owner still see it whole.
    expect((await t.call('lithos_receipts', {}, HUMAN)).receipts[0].final_nodes).toHaveLength(r.nodes.length);
    expect((await t.call('lithos_receipts', {}, OTHER)).receipts[0].final_nodes).toHaveLength(r.nodes.length);
  });

  test('another agent\'s receipt is shown only when every final node is visible and its filter names no private namespace of another agent', async () => {
    const secret = await t.call('lithos_retrieve', { query_text: 'zebra secret' }, OTHER);
    expect(pathsOf(secret)).toContain(SECRET);
    const shared = await t.call('lithos_retrieve', { query_text: 'reuses database connections', namespace_filter: ['shared'] }, OTHER);
    expect(pathsOf(shared)).toEqual([POOLING]);
    await t.engine.services.retrieval.receipts.append(receipt({ receipt_id: 'scoped-private', namespace_filter: ['agent/agent-b', 'shared'], nodes: [POOLING_ID()] }));

    const seenBy = async (who: ToolCaller) => (await t.call('lithos_receipts', {}, who)).receipts.map((r: Receipt) => r.receipt_id);
    expect(await seenBy(AGENT)).toEqual([shared.receipt_id]);
    expect(await seenBy(OTHER)).toEqual(['scoped-private', shared.receipt_id, secret.receipt_id]);
    expect(await seenBy(HUMAN)).toEqual(['scoped-private', shared.receipt_id, secret.receipt_id]);
    // Candidates of a shown receipt are cut to what the caller may see.
    await t.engine.services.retrieval.receipts.append(receipt({ receipt_id: 'cands', nodes: [POOLING_ID()], candidates: [POOLING_ID(), SECRET_ID] }));
    expect((await t.call('lithos_receipts', { receipt_id: 'cands' })).receipts[0].candidates).toEqual([POOLING_ID()]);
    expect((await t.call('lithos_receipts', { receipt_id: 'cands' }, OTHER)).receipts[0].candidates).toEqual([POOLING_ID(), SECRET_ID]);
  });

  test('conflicts are shown only when both notes are visible', async () => {
    const conflict = { edge_id: 'e1', a: POOL_ID, b: SECRET_ID, state: 'open' };
    await t.engine.services.retrieval.receipts.append(receipt({ receipt_id: 'mine', agent_id: 'agent-a', nodes: [POOL_ID], conflicts: [conflict] }));
    expect((await t.call('lithos_receipts', {})).receipts[0].conflicts).toEqual([]);
    expect((await t.call('lithos_receipts', {}, HUMAN)).receipts[0].conflicts).toEqual([conflict]);
  });

  test('limit counts the receipts the caller may see, however many hidden ones are newer', async () => {
    const visible = await t.call('lithos_retrieve', { query_text: 'connection pool' });
    for (let i = 0; i < 30; i++) await t.engine.services.retrieval.receipts.append(receipt({ receipt_id: `hidden-${i}`, nodes: [SECRET_ID] }));
    expect((await t.call('lithos_receipts', { limit: 1 })).receipts.map((r: Receipt) => r.receipt_id)).toEqual([visible.receipt_id]);
    expect((await t.call('lithos_receipts', { limit: 2 }, OTHER)).receipts.map((r: Receipt) => r.receipt_id)).toEqual(['hidden-29', 'hidden-28']);
  });

  test('a node the caller may not see is not_found, like everywhere; the person may name a deleted note', async () => {
    expect((await failure(t.call('lithos_receipts', { node: SECRET_ID }))).code).toBe('not_found');
    expect((await failure(t.call('lithos_receipts', { node: SECRET }))).code).toBe('not_found');
    expect((await failure(t.call('lithos_receipts', { node: 'no-such-id' }))).code).toBe('not_found');
    const r = await t.call('lithos_retrieve', { query_text: 'connection pool' }, HUMAN);
    await t.vault.delete(POOL);
    await t.engine.reconcile();
    const ids = async (node: string) => (await t.call('lithos_receipts', { node }, HUMAN)).receipts.map((x: Receipt) => x.receipt_id);
    expect(await ids(POOL_ID)).toEqual([r.receipt_id]);
    expect(await ids(POOL)).toEqual([r.receipt_id]);
  });

  const BAD: [args: unknown, field: string | null][] = [
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
    [{ since: '' }, 'since'],
    [{ agent: '' }, 'agent'],
    [{ node: 5 }, 'node'],
    [{ from: 'x' }, '(arguments)'],
    [{ since: 'yesterday' }, null],
    [{ until: '2026-13-45' }, null],
    [{ since: '2026-01-02', until: '2026-01-01' }, null],
  ];
  test.each(BAD)('%j is invalid_argument', async (args, field) => {
    const err = await failure(t.call('lithos_receipts', args));
    expect(err.code).toBe('invalid_argument');
    if (field) expect((err.data.issues as { field: string }[]).map((i) => i.field)).toContain(field);
    else expect(err.message).toMatch(/since|until/);
  });
});

describe('lithos_node_stats', () => {
  test('by id, path or title: the learned signals and typed edge counts', async () => {
    await t.call('lithos_edge_create', { from: POOL_ID, to: INDEX_ID, type: 'depends_on' });
    await t.call('lithos_edge_create', { from: POOLING, to: POOL, type: 'supports' });
    await t.call('lithos_edge_create', { from: INDEX_ID, to: POOL_ID, type: 'supports' });
    for (const ref of [{ id: POOL_ID }, { path: POOL }, { title: 'Pool sizing' }]) {
      expect(await t.call('lithos_node_stats', ref)).toEqual({
        id: POOL_ID,
        path: POOL,
        title: 'Pool sizing',
        note_type: 'observation',
        namespace: 'project/atlas',
        salience: 0.5,
        retrieval_count: 0,
        last_retrieved_at: null,
        last_used_at: null,
        use_count: 0,
        ignored_count: 0,
        misleading_count: 0,
        spaced_rep_strength: 1,
        per_queryclass_priors: {},
        edges: { out: 1, in: 2, by_type: { depends_on: { out: 1, in: 0 }, supports: { out: 0, in: 2 } } },
      });
    }
  });

  test('learned values as the memory store holds them', async () => {
    await t.engine.services.learning.memory.stats.update(POOL_ID, { salience: 0.8, ignored_count: 2, misleading_count: 1, last_used_at: Date.UTC(2026, 0, 1, 12), per_queryclass_priors: { debug: 0.1 } });
    expect(await t.call('lithos_node_stats', { id: POOL_ID })).toMatchObject({ salience: 0.8, ignored_count: 2, misleading_count: 1, last_used_at: '2026-01-01T12:00:00.000Z', per_queryclass_priors: { debug: 0.1 } });
  });

  test('gated like lithos_read: a note the caller may not see is not_found, and edges to it are not counted', async () => {
    await t.call('lithos_edge_create', { from: POOL_ID, to: SECRET_ID, type: 'related_to' }, OTHER);
    expect((await t.call('lithos_node_stats', { id: POOL_ID })).edges).toEqual({ out: 0, in: 0, by_type: {} });
    expect((await t.call('lithos_node_stats', { id: POOL_ID }, OTHER)).edges).toEqual({ out: 1, in: 0, by_type: { related_to: { out: 1, in: 0 } } });
    for (const ref of [{ id: SECRET_ID }, { path: SECRET }, { title: 'Secret plan' }]) {
      const err = await failure(t.call('lithos_node_stats', ref));
      expect(err.code).toBe('not_found');
    }
    expect((await t.call('lithos_node_stats', { id: SECRET_ID }, OTHER)).edges.in).toBe(1);
  });

  const BAD: [args: unknown, code: string][] = [
    [{}, 'invalid_argument'],
    [{ id: POOL_ID, path: POOL }, 'invalid_argument'],
    [{ id: '' }, 'invalid_argument'],
    [{ path: '../x.md' }, 'path_outside_vault'],
    [{ id: 'no-such-id' }, 'not_found'],
    [{ title: 'Nothing like this' }, 'not_found'],
  ];
  test.each(BAD)('%j → %s', async (args, code) => {
    expect((await failure(t.call('lithos_node_stats', args))).code).toBe(code);
  });
});

test('the fixture is the shared tools fixture (these specs rely on its four notes)', () => {
  expect(Object.keys(FIXTURE).sort()).toEqual(['agent/agent-b/Secret plan.md', 'project/atlas/Index.md', 'project/atlas/Pool sizing.md', 'shared/concepts/Connection pooling.md']);
});
