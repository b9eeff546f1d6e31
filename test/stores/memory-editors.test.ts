import { MemoryStore, type NoteEditorRow } from '../../shared/stores/memory-store';
import { failure } from '../twins/error-code';
import { env } from './helpers';

/** memory.sqlite's note_editors (the trust boundary): one row per note, journaled like every other change. */

const ROW: NoteEditorRow = { node_id: 'n1', creator_kind: 'person', editor_kind: 'agent', editor: 'alice', fingerprint: 'f1', at: 1000 };

test('a row is kept, replaced whole, and read back', async () => {
  const { store } = await MemoryStore.open(await env());
  expect(store.editors.get('n1')).toBeNull();
  await store.editors.set(ROW);
  expect(store.editors.get('n1')).toEqual(ROW);
  await store.editors.set({ ...ROW, editor_kind: 'person', editor: 'ignored for the person', fingerprint: 'f2', at: 2000 });
  expect(store.editors.get('n1')).toEqual({ ...ROW, editor_kind: 'person', editor: null, fingerprint: 'f2', at: 2000 });
  await store.close();
});

test('a bad row is refused and nothing is written', async () => {
  const { store } = await MemoryStore.open(await env());
  for (const bad of [{ ...ROW, editor_kind: 'robot' }, { ...ROW, creator_kind: '' }, { ...ROW, editor: null }, { ...ROW, fingerprint: '' }, { ...ROW, node_id: '' }]) {
    expect((await failure(store.editors.set(bad as NoteEditorRow))).code).toBe('invalid_argument');
  }
  expect(store.editors.get('n1')).toBeNull();
  await store.close();
});

test('an acknowledged row survives a crash (journal replay), and goes when its node is purged', async () => {
  const e = await env();
  const { store } = await MemoryStore.open(e);
  await store.nodes.register({ node_id: 'n1', path: 'a.md', id_source: 'registry', content_hash: 'h' });
  await store.editors.set(ROW);
  // No close: the process dies with only the journal written since the last snapshot.
  const { store: reopened } = await MemoryStore.open(await env(e.blobs.clone()));
  expect(reopened.editors.get('n1')).toEqual(ROW);
  await reopened.nodes.tombstone('n1', 1);
  expect(await reopened.nodes.purgeTombstones(2)).toBe(1);
  expect(reopened.editors.get('n1')).toBeNull();
  await reopened.close();
  await store.close();
});
