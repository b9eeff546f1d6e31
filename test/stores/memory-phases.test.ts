import { MemoryStore, TOMBSTONE_RETENTION_MS, type LedgerPhaseRow } from '../../shared/stores/memory-store';
import { env, DAY } from './helpers';

/** The ledger's phases in memory.sqlite (stores/memory-phases.ts): journaled like every signal, purged with the node. */

const A = 'aaaaaaaa-0000-4000-8000-000000000001';

const row = (over: Partial<LedgerPhaseRow> = {}): LedgerPhaseRow => ({
  node_id: A,
  phase: 'emergent',
  phase_since: 1000,
  vitality: 'decaying',
  vitality_since: 2000,
  first_used_at: 500,
  evaluated_at: 3000,
  ...over,
});

test('a stored phase is read back, and survives a crash before any snapshot (journal replay)', async () => {
  const e = await env();
  const { store } = await MemoryStore.open(e);
  expect(store.phases.get(A)).toBeNull();
  await store.phases.set(row());
  expect(store.phases.get(A)).toEqual(row());
  const { store: again, warnings } = await MemoryStore.open(await env(e.blobs.clone()));
  expect(warnings).toEqual([]);
  expect(again.phases.all()).toEqual([row()]);
});

test.each([
  [{ phase: 'settled' }, 'phase'],
  [{ vitality: 'asleep' }, 'vitality'],
  [{ phase_since: Number.NaN }, 'phase_since'],
  [{ node_id: '' }, 'node_id'],
] as [Partial<LedgerPhaseRow>, string][])('%j is refused with invalid_argument, nothing written', async (over, field) => {
  const { store } = await MemoryStore.open(await env());
  await expect(store.phases.set(row(over))).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringContaining(field) });
  expect(store.phases.all()).toEqual([]);
});

test('a purged node takes its phase with it', async () => {
  const e = await env();
  const { store } = await MemoryStore.open(e);
  await store.nodes.register({ node_id: A, path: 'a.md', id_source: 'frontmatter', content_hash: 'h' });
  await store.phases.set(row());
  await store.nodes.tombstone(A, e.clock.now());
  e.clock.advance(TOMBSTONE_RETENTION_MS + DAY);
  expect(await store.nodes.purgeTombstones(e.clock.now() - TOMBSTONE_RETENTION_MS)).toBe(1);
  expect(store.phases.get(A)).toBeNull();
});
