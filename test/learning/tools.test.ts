import { failure } from '../twins/error-code';
import { AGENT, HUMAN, INDEX_ID, OTHER, POOL_ID, SECRET_ID, openTools, type ToolHarness } from '../tools/fixture';

/** lithos_feedback, lithos_quarantine_list and the feedback fields of lithos_task_complete, through the dispatcher. */

let t: ToolHarness;
beforeEach(async () => {
  t = await openTools();
});
afterEach(async () => {
  await t.engine.close();
});

const POOLING = 'shared/concepts/Connection pooling.md';
const retrieve = async (args: Record<string, unknown> = {}, caller = AGENT) => t.call('lithos_retrieve', { query_text: 'connection pool', ...args }, caller);

describe('lithos_feedback', () => {
  test('cited notes (by id, path or title) are used, the rest ignored; the result says what happened', async () => {
    const r = await retrieve();
    const out = await t.call('lithos_feedback', { receipt_id: r.receipt_id, cited: ['project/atlas/Pool sizing.md'], misleading: ['Index'] });
    expect(out).toMatchObject({ receipt_id: r.receipt_id, applied: true, query_class: 'lookup', used: [POOL_ID], misleading: [INDEX_ID], quarantined: [] });
    expect(out.ignored).toEqual([t.engine.services.notes.note(POOLING)!.nodeId]);
    expect(t.engine.services.learning.memory.stats.get(POOL_ID)).toMatchObject({ use_count: 1, salience: 0.52 });
    expect(t.engine.services.learning.memory.stats.get(INDEX_ID).misleading_count).toBe(1);
  });

  test('repeating feedback for a receipt changes nothing and says applied: false', async () => {
    const r = await retrieve();
    await t.call('lithos_feedback', { receipt_id: r.receipt_id, cited: [POOL_ID] });
    expect(await t.call('lithos_feedback', { receipt_id: r.receipt_id, cited: [POOL_ID] })).toMatchObject({ applied: false });
    expect(t.engine.services.learning.memory.stats.get(POOL_ID).use_count).toBe(1);
  });

  test("another agent's receipt is refused (forbidden) and left for its agent: feedback counts once per receipt", async () => {
    const theirs = await retrieve({ namespace_filter: 'project' }, OTHER); // nothing agent-a may not see
    const err = await failure(t.call('lithos_feedback', { receipt_id: theirs.receipt_id, cited: [POOL_ID] }, AGENT));
    expect(err.code).toBe('forbidden');
    expect(err.message).toMatch(/another agent's retrieval: give feedback on your own receipts/);
    expect(await t.call('lithos_feedback', { receipt_id: theirs.receipt_id, cited: [POOL_ID] }, OTHER)).toMatchObject({ applied: true });
    // the person may give feedback on any receipt
    const again = await retrieve({ namespace_filter: 'project' }, OTHER);
    expect(await t.call('lithos_feedback', { receipt_id: again.receipt_id, cited: [POOL_ID] }, HUMAN)).toMatchObject({ applied: true });
  });

  test('an agent may not lift a quarantine by writing the status back; the person may', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await retrieve();
      await t.call('lithos_feedback', { receipt_id: r.receipt_id, misleading: [INDEX_ID] });
    }
    expect(t.engine.services.notes.note(INDEX_ID)!.cached.meta.status).toBe('quarantined');
    const err = await failure(t.call('lithos_write', { id: INDEX_ID, status: 'active' }, AGENT));
    expect(err.code).toBe('forbidden');
    expect(err.message).toMatch(/quarantined .* a person reviews it/);
    await t.call('lithos_write', { id: INDEX_ID, status: 'active' }, HUMAN);
    expect(t.engine.services.notes.note(INDEX_ID)!.cached.meta.status).toBe('active');
  });

  test("naming a note the caller may not see is answered as for an unknown id: the error does not give its title", async () => {
    const r = await retrieve();
    const err = await failure(t.call('lithos_feedback', { receipt_id: r.receipt_id, cited: [SECRET_ID] }, AGENT));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toContain(`"${SECRET_ID}" was not returned by receipt`);
    expect(err.message).not.toContain('Secret plan');
  });

  test('a note deleted since the retrieval: naming it is not_found (as lithos_task_complete says), and it is not listed as ignored', async () => {
    const r = await retrieve();
    const gone = r.nodes.find((n: { id: string }) => n.id !== POOL_ID).id as string;
    await t.call('lithos_delete', { id: gone }, HUMAN);
    expect((await failure(t.call('lithos_feedback', { receipt_id: r.receipt_id, misleading: [gone] }))).code).toBe('not_found');
    const out = await t.call('lithos_feedback', { receipt_id: r.receipt_id, cited: [POOL_ID] });
    expect(out.ignored).not.toContain(gone);
    expect(out.used).toEqual([POOL_ID]);
  });

  test('an unknown receipt, or one the caller may not see, is not_found', async () => {
    expect((await failure(t.call('lithos_feedback', { receipt_id: 'nope', cited: [POOL_ID] }))).code).toBe('not_found');
    // agent-b's retrieval returned its private note: agent-a may not see that receipt
    const theirs = await retrieve({ query_text: 'pool secret zebra' }, OTHER);
    expect(theirs.nodes.map((n: { id: string }) => n.id)).toContain(SECRET_ID);
    expect((await failure(t.call('lithos_feedback', { receipt_id: theirs.receipt_id, cited: [POOL_ID] }))).code).toBe('not_found');
  });

  test('a note the receipt did not return is invalid_argument naming it', async () => {
    const r = await retrieve({ namespace_filter: 'shared' });
    const err = await failure(t.call('lithos_feedback', { receipt_id: r.receipt_id, cited: ['Pool sizing'] }));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toContain('Pool sizing');
    expect(t.engine.services.learning.memory.stats.get(POOL_ID).use_count).toBe(0);
  });

  test('described as cheap and optional, with implicit signals as the fallback; idempotent, not read-only', () => {
    const def = t.tools.list().find((d) => d.name === 'lithos_feedback')!;
    expect(def.description).toMatch(/cheap/);
    expect(def.description).toMatch(/implicit signals/);
    expect(def.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
  });
});

describe('lithos_task_complete carries feedback', () => {
  const newTask = async () => (await t.call('lithos_task_create', { title: 'Fix the pool' })).task.id as string;

  test('with receipt_ids: applied to each receipt, outcome marked learned', async () => {
    const task = await newTask();
    const a = await retrieve({ task_id: task });
    const b = await retrieve({ task_id: task, query_text: 'missing index latency' });
    const r = await t.call('lithos_task_complete', { task_id: task, receipt_ids: [a.receipt_id, b.receipt_id], cited_nodes: [POOL_ID], accepted: true });
    expect(r.feedback.map((f: { receipt_id: string; applied: boolean }) => [f.receipt_id, f.applied])).toEqual([[a.receipt_id, true], [b.receipt_id, true]]);
    expect(r.outcome.learned_at).not.toBeNull();
    expect(t.engine.services.learning.memory.stats.get(POOL_ID).use_count).toBe(b.nodes.some((n: { id: string }) => n.id === POOL_ID) ? 2 : 1);
  });

  test('without receipt ids the task\'s own retrievals are used; with no evidence at all nothing is learned', async () => {
    const task = await newTask();
    await retrieve({ task_id: task });
    const r = await t.call('lithos_task_complete', { task_id: task, output_text: 'The connection pool was too small for the nightly batch; raised the pool to 40 connections.' });
    expect(r.feedback).toHaveLength(1);
    expect(r.feedback[0].supported_by_output).toContain(POOL_ID);
    const quiet = await newTask();
    await retrieve({ task_id: quiet });
    expect((await t.call('lithos_task_complete', { task_id: quiet })).feedback).toEqual([]);
    expect(t.engine.services.coordination.pendingOutcomes().map((o) => o.task_id)).toEqual([quiet]);
    // An empty or blank output_text is no evidence either, and no error.
    for (const output_text of ['', '   ']) {
      const blank = await newTask();
      await retrieve({ task_id: blank });
      expect((await t.call('lithos_task_complete', { task_id: blank, output_text })).feedback).toEqual([]);
    }
  });

  test('a cited note outside the receipt, an unknown receipt or another task\'s receipt completes nothing', async () => {
    const task = await newTask();
    const r = await retrieve({ task_id: task, namespace_filter: 'shared' });
    expect((await failure(t.call('lithos_task_complete', { task_id: task, receipt_id: r.receipt_id, cited_nodes: [POOL_ID] }))).code).toBe('invalid_argument');
    expect((await failure(t.call('lithos_task_complete', { task_id: task, receipt_id: 'nope' }))).code).toBe('not_found');
    // A retrieval made for another task: its learning belongs to that one.
    const other = await newTask();
    const elsewhere = await retrieve({ task_id: other });
    const err = await failure(t.call('lithos_task_complete', { task_id: task, receipt_id: elsewhere.receipt_id }));
    expect(err).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining(`is a retrieval for task ${other}`) });
    expect((await t.call('lithos_task_status', { task_id: task })).task.status).toBe('open');
    // One made without a task (the agent forgot task_id) is accepted.
    const untasked = await retrieve({});
    expect((await t.call('lithos_task_complete', { task_id: task, receipt_id: untasked.receipt_id })).feedback).toHaveLength(1);
  });
});

test('lithos_quarantine_list lists quarantined notes the caller may see, most misleading first', async () => {
  expect(await t.call('lithos_quarantine_list', {})).toEqual({ notes: [], total: 0, next_cursor: null });
  for (let i = 0; i < 3; i++) {
    const r = await retrieve();
    await t.call('lithos_feedback', { receipt_id: r.receipt_id, misleading: [INDEX_ID] });
  }
  const list = await t.call('lithos_quarantine_list', {}, HUMAN);
  expect(list).toEqual({ total: 1, next_cursor: null, notes: [expect.objectContaining({ id: INDEX_ID, path: 'project/atlas/Index.md', misleading_count: 3 })] });
  expect((await retrieve()).nodes.map((n: { id: string }) => n.id)).not.toContain(INDEX_ID);
});
