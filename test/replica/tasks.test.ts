import { carryAll, learnedState, makeDevice } from './devices-sim';

/**
 * Spec (issue 22): coordination travels like learning. A task an agent opens on one device, its claims and
 * findings, are seen on the other; a completion on the other comes back; the outcome's learning is not
 * applied twice (outcomes stay where they were recorded).
 */
test('tasks, claims, findings and agents reach every device; a completion made elsewhere comes back', async () => {
  const [a, b] = [await makeDevice(0), await makeDevice(1)];
  await a.coordination.ensureAgent('scout');
  const task = await a.coordination.createTask({ created_by: 'scout', title: 'Size the pool' });
  await a.coordination.claim({ task_id: task.id, aspect: 'metrics', agent: 'scout' });
  await a.coordination.postFinding({ task_id: task.id, agent: 'scout', summary: 'p95 waits at 20 connections', knowledge_id: a.id('a.md') });
  await a.tasks.sync();
  carryAll([a, b]);
  await b.tasks.sync();
  expect(b.coordination.task(task.id)?.title).toBe('Size the pool');
  expect(b.coordination.agent('scout')).not.toBeNull();
  const [finding] = b.coordination.findings(task.id);
  expect(finding.summary).toBe('p95 waits at 20 connections');
  expect(finding.knowledge_id).toBe(b.id('a.md')); // the note, under b's own node id
  await b.coordination.ensureAgent('writer');
  await b.coordination.completeTask(task.id, 'writer', { cited_nodes: [b.id('a.md')] });
  await b.tasks.sync();
  carryAll([a, b]);
  await a.tasks.sync();
  expect(a.coordination.task(task.id)?.status).toBe('completed');
  expect(a.coordination.pendingOutcomes()).toEqual([]); // b recorded the outcome: only b learns from it
  expect(learnedState(a)).toEqual(learnedState(b));
});
