import { FOLLOW_UP } from '../../shared/learning/constants';
import { note, type Harness } from '../engine/harness';
import { A, B, C, FILES, openLearning } from './fixture';

/** Follow-up retrieval locality: a re-query in the same task that lands on or next to the last result is a weak positive. */

const E = '55555555-5555-4555-8555-555555555555';
const F = '66666666-6666-4666-8666-666666666666';

let h: Harness;
beforeEach(async () => {
  h = await openLearning({
    ...FILES,
    // E is linked from A (one hop from the first result); F is unrelated to everything.
    'project/a.md': note({ id: A, title: 'Pool sizing' }, 'The connection pool was too small for the nightly batch; raise it to 40 connections. See [[Batch schedule]].\n'),
    'project/e.md': note({ id: E, title: 'Batch schedule' }, 'The nightly batch starts at 02:00 and loads the orders table.\n'),
    'project/f.md': note({ id: F, title: 'Lunch menu' }, 'Soup on Mondays, curry on Fridays.\n'),
  });
});
afterEach(async () => {
  await h.engine.close();
});

const ask = (query_text: string, task_id?: string, k = 3) => h.engine.services.retrieval.retrieve({ query_text, task_id, agent_id: 'agent-a', max_context_nodes: k }, { jitter: false, seed: 1 });
const salience = (id: string) => h.engine.services.learning.memory.stats.get(id).salience;

test('overlapping and graph-near nodes of a re-query in the same task gain FOLLOW_UP.salience; the first query gains nothing', async () => {
  const first = await ask('connection pool too small', 'task-1');
  expect(first.nodes.map((n) => n.id)).toContain(A);
  for (const n of first.nodes) expect(salience(n.id)).toBe(0.5);
  const second = await ask('nightly batch pool', 'task-1');
  const ids = second.nodes.map((n) => n.id);
  const overlap = ids.filter((id) => first.nodes.some((n) => n.id === id));
  expect(overlap.length).toBeGreaterThan(0);
  for (const id of overlap) expect(salience(id)).toBeCloseTo(0.5 + FOLLOW_UP.salience, 6);
  if (ids.includes(E)) expect(salience(E)).toBeCloseTo(0.5 + FOLLOW_UP.salience, 6); // one link from A
  const [entry] = await h.engine.services.governance.audit.recent({ action: 'feedback' });
  expect(entry).toMatchObject({ target: second.receipt_id, actor: { kind: 'agent', id: 'agent-a' }, data: expect.objectContaining({ signal: 'follow_up', task: 'task-1', previous_receipt: first.receipt_id }) });
});

test('a node reached only through a link from the last result counts as near', async () => {
  await ask('connection pool too small', 'task-2');
  const second = await ask('Batch schedule orders table', 'task-2');
  expect(second.nodes.map((n) => n.id)).toContain(E);
  expect(salience(E)).toBeCloseTo(0.5 + FOLLOW_UP.salience, 6);
});

test('no task, another task, or a re-query that lands elsewhere gives nothing', async () => {
  await ask('connection pool too small');
  await ask('connection pool too small');
  await ask('connection pool too small', 'task-3');
  await ask('connection pool too small', 'task-4');
  for (const id of [A, B, C]) expect(salience(id)).toBe(0.5);
  const elsewhere = await ask('soup curry lunch menu', 'task-3', 1);
  expect(elsewhere.nodes.map((n) => n.id)).toEqual([F]);
  expect(salience(F)).toBe(0.5);
  expect(await h.engine.services.governance.audit.recent({ action: 'feedback' })).toHaveLength(0);
});

test('after a restart the previous receipt of the task is read back from the receipt log', async () => {
  const first = await ask('connection pool too small', 'task-5');
  await h.engine.close();
  const { openHarness } = await import('../engine/harness');
  h = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
  await h.engine.reconcile();
  const second = await ask('connection pool too small', 'task-5');
  const [entry] = await h.engine.services.governance.audit.recent({ action: 'feedback' });
  expect(entry).toMatchObject({ target: second.receipt_id, data: expect.objectContaining({ previous_receipt: first.receipt_id }) });
});
