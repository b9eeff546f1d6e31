import { note, openHarness, type Harness } from './harness';

/**
 * The engine is made of services (shared/session/services.ts), built once at open: they reach each other
 * only through the ports they were given, and they refuse work once the engine is closed, as the engine's
 * own methods do.
 */
const files = {
  'a.md': note({ id: 'a', title: 'Pool size' }, 'The connection pool size is 10. See [[b]].'),
  'b.md': note({ id: 'b', title: 'Pool notes' }, 'Connection pool notes.'),
};

let h: Harness;
beforeEach(async () => {
  h = await openHarness(files);
  await h.engine.reconcile();
});
afterEach(() => h.engine.close());

test('the services are the engine’s own parts: its members and theirs are the same objects', () => {
  const s = h.engine.services;
  expect(s.governance.audit).toBe(h.engine.services.governance.audit);
  expect(s.governance.policy).toBe(h.engine.services.governance.policy);
  expect(s.learning.tunables).toBe(h.engine.services.learning.tunables);
  expect(s.learning.memory).toBe(h.engine.services.learning.memory);
  expect(s.learning.consolidator).toBe(h.engine.services.learning.consolidator);
  expect(s.conflicts).toBe(h.engine.services.conflicts);
  expect(s.retrieval.receipts).toBe(h.engine.services.retrieval.receipts);
  expect(s.coordination).toBe(h.engine.services.coordination);
  expect(s.notes.note('a')?.path).toBe('a.md');
  expect(s.notes.links('a.md').map((l) => l.targetPath)).toEqual(['b.md']);
});

test('a re-query in the same task teaches nothing: retrieval alone leaves salience where it was', async () => {
  const { retrieval, learning, governance } = h.engine.services;
  const viewer = governance.viewerFor({ kind: 'human', agent_id: null });
  const ask = () => retrieval.retrieve({ query_text: 'connection pool', task_id: 'task-1', max_context_nodes: 2 }, { viewer, jitter: false, seed: 1 });
  const first = await ask();
  expect(first.nodes.length).toBeGreaterThan(0);
  for (const n of first.nodes) expect(learning.memory.stats.get(n.id).salience).toBe(0.5);
  const second = await ask();
  expect(second.nodes.map((n) => n.id)).toEqual(first.nodes.map((n) => n.id));
  for (const n of second.nodes) expect(learning.memory.stats.get(n.id).salience).toBe(0.5);
});

test('once the engine is closed its services refuse work with `unsupported`, as the engine does', async () => {
  const { notes, search, retrieval, conflicts } = h.engine.services;
  await h.engine.close();
  const closed = expect.objectContaining({ code: 'unsupported' });
  expect(() => notes.writeNote({ path: 'c.md', mode: 'create', content: 'x', fields: {}, actor: null })).toThrow(closed);
  await expect(notes.parse('a.md')).rejects.toEqual(closed);
  expect(() => search.search('pool')).toThrow(closed);
  await expect(retrieval.retrieve({ query_text: 'pool' })).rejects.toEqual(closed);
  await expect(conflicts.followPolicy()).rejects.toEqual(closed);
  expect(() => h.engine.services.notes.writeNote({ path: 'c.md', mode: 'create', content: 'x', fields: {}, actor: null })).toThrow(closed);
});
