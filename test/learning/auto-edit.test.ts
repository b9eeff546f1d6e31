import type { Harness } from '../engine/harness';
import { note } from '../engine/harness';
import { NOTE_TYPE_TABLE } from '../../shared/model/note-types';
import { SUMMARY, openFixture } from './consolidation-fixture';

/**
 * auto_edit (model/note-types.ts): the engine rewrites a note on its own (consolidation's summary refresh)
 * only when the note's type allows it. A task record or an observation linking the same material is
 * evidence and stays as its author wrote it.
 */

let h: Harness;
beforeEach(async () => {
  h = await openFixture();
});
afterEach(async () => {
  await h.engine.close();
});

const run = () => h.engine.services.learning.consolidator.run({});
const LINKS = 'What we know about streams: [[Lag case a1]], [[Lag case a2]] and [[Lag case a3]].\n';

test('a task record and an observation with the same links as the summary note are not rewritten; the summary is', async () => {
  const TASK = 'project/streams/Streams task.md';
  const OBS = 'project/streams/Streams observation.md';
  await h.engine.services.notes.writeNote({ path: TASK, mode: 'create', content: LINKS, fields: { title: 'Streams task', note_type: 'task_record' }, actor: 'agent-a' });
  await h.engine.services.notes.writeNote({ path: OBS, mode: 'create', content: LINKS, fields: { title: 'Streams observation', note_type: 'observation' }, actor: 'agent-a' });
  const before = [h.vault.text(TASK), h.vault.text(OBS)];
  expect((await run()).summaries_refreshed).toEqual([SUMMARY.id]);
  expect([h.vault.text(TASK), h.vault.text(OBS)]).toEqual(before);
});

test('the table decides: with auto_edit off for summaries, consolidation leaves the summary note alone', async () => {
  const text = h.vault.text(SUMMARY.path);
  const row = NOTE_TYPE_TABLE.summary as { auto_edit: boolean };
  row.auto_edit = false;
  try {
    expect((await run()).summaries_refreshed).toEqual([]);
    expect(h.vault.text(SUMMARY.path)).toBe(text);
  } finally {
    row.auto_edit = true;
  }
  expect((await run()).summaries_refreshed).toEqual([SUMMARY.id]);
});

test('a person who retypes a summary note as an observation takes it out of the engine\'s hands', async () => {
  h.vault.put(SUMMARY.path, note({ id: SUMMARY.id, title: 'Streams summary', note_type: 'observation' }, LINKS));
  await h.engine.reconcile();
  const text = h.vault.text(SUMMARY.path);
  expect((await run()).summaries_refreshed).toEqual([]);
  expect(h.vault.text(SUMMARY.path)).toBe(text);
});
