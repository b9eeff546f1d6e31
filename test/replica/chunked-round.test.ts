import { ROUND_CHUNK_LINES } from '../../shared/replica/replicator';
import { carryAll, makeDevice } from './devices-sim';

/**
 * Spec (issue 22): a long absence is merged a chunk at a time, the host getting a turn between chunks, and
 * what this device learns while the merge is under way is neither lost nor overwritten.
 */
test('a merge larger than a chunk takes every line in and keeps a local change made between chunks', async () => {
  const [a, b] = [await makeDevice(0), await makeDevice(1)];
  const rows = Math.round(ROUND_CHUNK_LINES * 2.5);
  const deltas = Array.from({ length: rows }, (_, i) => ({ term: `term${i}`, tag: 'garden', shown: 2, used: 1 }));
  await a.store.learned.addTagAffinity(deltas, 1);
  await a.replicator.sync();
  carryAll([a, b]);
  // Between two chunks (a macrotask), b learns something: it must survive the rest of the merge.
  const during = new Promise<void>((resolve) => {
    setImmediate(() => {
      void b.store.learned.addTagAffinity([{ term: 'term0', tag: 'garden', shown: 1, used: 1 }], 2).then(() => resolve());
    });
  });
  const merged = b.replicator.sync();
  await during;
  const report = await merged;
  expect(report.from[0]?.lines).toBe(rows);
  const count = Number(b.store.replica.db.one("SELECT COUNT(*) FROM tag_affinity WHERE tag = 'garden'")?.[0]);
  expect(count).toBe(rows);
  await b.replicator.sync();
  expect(b.store.learned.tagAffinity(['term0']).find((r) => r.tag === 'garden')).toEqual(expect.objectContaining({ shown: 3, used: 2 }));
  carryAll([a, b]);
  await a.replicator.sync();
  expect(a.store.learned.tagAffinity(['term0']).find((r) => r.tag === 'garden')).toEqual(expect.objectContaining({ shown: 3, used: 2 }));
});

test('a first round offering more rows than a chunk publishes them all, a chunk at a time', async () => {
  const [a, b] = [await makeDevice(0), await makeDevice(1)];
  const rows = Math.round(ROUND_CHUNK_LINES * 1.5);
  await a.store.learned.addTagAffinity(Array.from({ length: rows }, (_, i) => ({ term: `t${i}`, tag: 'shed', shown: 1, used: 0 })), 1);
  const first = await a.replicator.sync();
  expect(first.published).toBe(rows);
  expect(a.replicator.pendingChanges()).toBe(0);
  carryAll([a, b]);
  await b.replicator.sync();
  expect(Number(b.store.replica.db.one("SELECT COUNT(*) FROM tag_affinity WHERE tag = 'shed'")?.[0])).toBe(rows);
});
