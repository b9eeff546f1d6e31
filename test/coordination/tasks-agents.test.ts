import { parseJournal } from '../../shared/stores/journal';
import { COORDINATION_JOURNAL } from '../../shared/coordination/coordination-store';
import { codeOf, failure } from '../twins/error-code';
import { MIN, openStore, withAgents } from './helpers';

const A = 'agent-a';
const B = 'agent-b';

describe('agents', () => {
  it('ensureAgent registers on first sight, is idempotent, and refreshes last_seen_at at most once a minute', async () => {
    const { store, e } = await openStore();
    const t0 = e.clock.now();
    expect(await store.ensureAgent(A)).toEqual({ id: A, name: null, type: null, registered_at: t0, last_seen_at: t0, metadata: {} });
    e.clock.advance(30_000);
    expect((await store.ensureAgent(A)).last_seen_at).toBe(t0);
    e.clock.advance(30_000);
    expect(await store.ensureAgent(A)).toMatchObject({ registered_at: t0, last_seen_at: t0 + MIN });
    expect(store.agents()).toHaveLength(1);
    // Two writes in all: the first sighting and the one refresh.
    expect(parseJournal(e.blobs.files.get(COORDINATION_JOURNAL) ?? null).entries).toHaveLength(2);
  });

  it('registerAgent creates, then updates only the fields given', async () => {
    const { store, e } = await openStore();
    expect(await store.registerAgent({ id: A, name: 'Agent A', type: 'claude-code', metadata: { v: 1 } })).toMatchObject({ created: true, agent: { name: 'Agent A' } });
    e.clock.advance(5 * MIN);
    const again = await store.registerAgent({ id: A, metadata: { v: 2 } });
    expect(again).toEqual({
      created: false,
      agent: { id: A, name: 'Agent A', type: 'claude-code', registered_at: e.clock.now() - 5 * MIN, last_seen_at: e.clock.now(), metadata: { v: 2 } },
    });
  });

  it('lists agents by type and activity, most recently seen first', async () => {
    const { store, e } = await openStore();
    await store.registerAgent({ id: A, type: 'cursor' });
    e.clock.advance(10 * MIN);
    await store.registerAgent({ id: B, type: 'claude-code' });
    expect(store.agents().map((a) => a.id)).toEqual([B, A]);
    expect(store.agents({ type: 'cursor' }).map((a) => a.id)).toEqual([A]);
    expect(store.agents({ activeSince: e.clock.now() - MIN }).map((a) => a.id)).toEqual([B]);
  });

  it.each([
    ['empty', ''],
    ['blank', '  '],
    ['padded', ' a'],
    ['with a newline', 'a\nb'],
    ['with a control character', 'a\u0000b'],
    ['too long', 'a'.repeat(201)],
    ['not a string', 42],
  ])('an agent id that is %s is invalid_argument', async (_label, id) => {
    const { store } = await openStore();
    expect(await codeOf(store.ensureAgent(id as string))).toBe('invalid_argument');
    expect(await codeOf(store.registerAgent({ id: id as string }))).toBe('invalid_argument');
    expect(store.agents()).toEqual([]);
  });

  it('metadata must be a small JSON object', async () => {
    const { store } = await openStore();
    expect(await codeOf(store.registerAgent({ id: A, metadata: [1] as unknown as Record<string, unknown> }))).toBe('invalid_argument');
    expect(await codeOf(store.registerAgent({ id: A, metadata: { big: 'x'.repeat(20_000) } }))).toBe('invalid_argument');
    expect(store.agent(A)).toBeNull();
  });
});

describe('tasks', () => {
  it('creates an open task with an id, its creator, tags and metadata', async () => {
    const { store, e } = await openStore();
    await withAgents(store, A);
    const t = await store.createTask({ created_by: A, title: 'Index the wiki', description: 'All of it.\nTwice.', tags: ['wiki', 'wiki', 'index'], metadata: { prio: 1 } });
    expect(t).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Index the wiki',
      description: 'All of it.\nTwice.',
      status: 'open',
      created_by: A,
      created_at: e.clock.now(),
      completed_at: null,
      tags: ['wiki', 'index'],
      metadata: { prio: 1 },
    });
    expect(store.task(t.id)).toEqual(t);
  });

  it('lists tasks newest first, filtered by status, creator, live claimant, tags and time', async () => {
    const { store, e } = await openStore();
    await withAgents(store, A, B);
    const t1 = await store.createTask({ created_by: A, title: 'one', tags: ['x', 'y'] });
    const t2 = await store.createTask({ created_by: B, title: 'two', tags: ['x'] });
    e.clock.advance(MIN);
    const t3 = await store.createTask({ created_by: A, title: 'three' });
    await store.claim({ task_id: t2.id, aspect: 'all', agent: A, ttl_minutes: 5 });
    await store.completeTask(t3.id, A);
    const ids = (q: Parameters<typeof store.tasks>[0]) => store.tasks(q).map((t) => t.title);

    expect(ids({})).toEqual(['three', 'two', 'one']);
    expect(ids({ status: 'open' })).toEqual(['two', 'one']);
    expect(ids({ status: 'completed' })).toEqual(['three']);
    expect(ids({ createdBy: A })).toEqual(['three', 'one']);
    expect(ids({ claimedBy: A })).toEqual(['two']);
    expect(ids({ tags: ['x'] })).toEqual(['two', 'one']);
    expect(ids({ tags: ['x', 'y'] })).toEqual(['one']);
    expect(ids({ since: e.clock.now() })).toEqual(['three']);
    expect(ids({ limit: 1 })).toEqual(['three']);
    e.clock.advance(5 * MIN);
    expect(ids({ claimedBy: A })).toEqual([]); // the claim expired
    expect([t1, t2].every((t) => store.task(t.id)?.status === 'open')).toBe(true);
  });

  it('refuses bad task input and bad filters with invalid_argument, and unknown creators with not_found', async () => {
    const { store } = await openStore();
    await withAgents(store, A);
    expect(await codeOf(store.createTask({ created_by: A, title: '' }))).toBe('invalid_argument');
    expect(await codeOf(store.createTask({ created_by: A, title: 'x', tags: 'a' as unknown as string[] }))).toBe('invalid_argument');
    expect(await codeOf(store.createTask({ created_by: A, title: 'x', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }))).toBe('invalid_argument');
    expect(await codeOf(store.createTask({ created_by: 'ghost', title: 'x' }))).toBe('not_found');
    expect(() => store.tasks({ status: 'done' as 'open' })).toThrow(/status must be one of open, completed, cancelled/);
    expect(() => store.tasks({ limit: 0 })).toThrow(/limit must be a whole number from 1 to 1000/);
    expect(store.tasks()).toEqual([]);
  });
});

describe('completing a task', () => {
  it('marks it completed, releases its claims and records the outcome for the learning layer, in one journal op', async () => {
    const { store, e } = await openStore();
    await withAgents(store, A, B);
    const t = await store.createTask({ created_by: A, title: 'Answer the question' });
    const other = await store.createTask({ created_by: A, title: 'Unrelated' });
    await store.claim({ task_id: t.id, aspect: 'research', agent: A });
    await store.claim({ task_id: t.id, aspect: 'writeup', agent: B });
    await store.claim({ task_id: other.id, aspect: 'research', agent: A });
    const before = parseJournal(e.blobs.files.get(COORDINATION_JOURNAL) ?? null).entries.length;
    e.clock.advance(MIN);

    const r = await store.completeTask(t.id, B, { receipt_id: 'rcpt-1', cited_nodes: ['n1', 'n2', 'n1'], misleading_nodes: ['n3'], output_text: 'The answer is 42.' });
    expect(r.task).toMatchObject({ status: 'completed', completed_at: e.clock.now() });
    expect(r.released.map((c) => c.aspect)).toEqual(['research', 'writeup']);
    expect(r.outcome).toEqual({
      task_id: t.id, agent_id: B, receipt_id: 'rcpt-1', cited_nodes: ['n1', 'n2'], misleading_nodes: ['n3'],
      output_text: 'The answer is 42.', recorded_at: e.clock.now(), learned_at: null,
    });
    expect(store.liveClaims(t.id)).toEqual([]);
    expect(store.liveClaims(other.id)).toHaveLength(1);
    expect(store.outcome(t.id)).toEqual(r.outcome);
    expect(store.pendingOutcomes()).toEqual([r.outcome]);
    expect(parseJournal(e.blobs.files.get(COORDINATION_JOURNAL) ?? null).entries.length).toBe(before + 1);

    const learned = await store.markOutcomeLearned(t.id);
    expect(learned.learned_at).toBe(e.clock.now());
    expect(store.pendingOutcomes()).toEqual([]);
    expect(await codeOf(store.markOutcomeLearned(other.id))).toBe('not_found');
  });

  it('a task completes once; completing again is a conflict', async () => {
    const { store } = await openStore();
    await withAgents(store, A);
    const t = await store.createTask({ created_by: A, title: 'x' });
    await store.completeTask(t.id, A);
    const err = await failure(store.completeTask(t.id, A));
    expect(err.code).toBe('conflict');
    expect(err.data).toEqual({ task_id: t.id, status: 'completed' });
    expect(await codeOf(store.completeTask('nope', A))).toBe('not_found');
  });

  it('refuses a node both cited and misleading, and malformed lists, writing nothing', async () => {
    const { store } = await openStore();
    await withAgents(store, A);
    const t = await store.createTask({ created_by: A, title: 'x' });
    const err = await failure(store.completeTask(t.id, A, { cited_nodes: ['n1', 'n2'], misleading_nodes: ['n2'] }));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toBe('A node cannot be both cited and misleading: n2.');
    expect(await codeOf(store.completeTask(t.id, A, { cited_nodes: [''] }))).toBe('invalid_argument');
    expect(await codeOf(store.completeTask(t.id, A, { receipt_id: '' }))).toBe('invalid_argument');
    expect(await codeOf(store.completeTask(t.id, A, { output_text: 'x'.repeat(100_001) }))).toBe('invalid_argument');
    expect(store.task(t.id)?.status).toBe('open');
    expect(store.outcome(t.id)).toBeNull();
  });
});

describe('findings', () => {
  it('are posted to a task (open or not) and listed oldest first, optionally since a time', async () => {
    const { store, e } = await openStore();
    await withAgents(store, A, B);
    const t = await store.createTask({ created_by: A, title: 'x' });
    const f1 = await store.postFinding({ task_id: t.id, agent: A, summary: 'The cache is stale after rename.' });
    e.clock.advance(MIN);
    const f2 = await store.postFinding({ task_id: t.id, agent: B, summary: 'Root cause in sync.ts', knowledge_id: 'node-1' });
    await store.completeTask(t.id, A);
    const f3 = await store.postFinding({ task_id: t.id, agent: A, summary: 'Follow-up:\nadd a test.' });
    expect(f2).toEqual({ id: expect.any(String), task_id: t.id, agent_id: B, summary: 'Root cause in sync.ts', knowledge_id: 'node-1', created_at: e.clock.now() });
    expect(store.findings(t.id)).toEqual([f1, f2, f3]);
    expect(store.findings(t.id, e.clock.now())).toEqual([f2, f3]);
  });

  it('need an existing task, a registered agent and a non-empty summary', async () => {
    const { store } = await openStore();
    await withAgents(store, A);
    const t = await store.createTask({ created_by: A, title: 'x' });
    expect(await codeOf(store.postFinding({ task_id: 'nope', agent: A, summary: 's' }))).toBe('not_found');
    expect(await codeOf(store.postFinding({ task_id: t.id, agent: 'ghost', summary: 's' }))).toBe('not_found');
    expect(await codeOf(store.postFinding({ task_id: t.id, agent: A, summary: '   ' }))).toBe('invalid_argument');
    expect(() => store.findings('nope')).toThrow(/No task nope/);
    expect(store.findings(t.id)).toEqual([]);
  });
});
