import { parse } from 'yaml';
import { PERSON } from '../../shared/session/caller';
import { AGENT, POOL_ID, openTools, type ToolHarness } from '../tools/fixture';

const POOL = 'project/atlas/Pool sizing.md';

/** The note's frontmatter as data, and its body. */
function split(text: string | undefined): { fm: Record<string, unknown>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text ?? '');
  if (!m) throw new Error('no frontmatter');
  return { fm: parse(m[1]) as Record<string, unknown>, body: m[2] };
}

let t: ToolHarness;
beforeEach(async () => {
  t = await openTools();
});
afterEach(async () => {
  await t.engine.close();
});

/** The person's "Set note type" (the plugin's note memory panel and command), through the notes room. */
describe('notes.setNoteType', () => {
  test('only note_type changes in the frontmatter, and the edit is audited as the person', async () => {
    const before = split(t.vault.text(POOL));
    const memory = await t.engine.as(PERSON);
    expect(await memory.notes.setNoteType(POOL, 'hypothesis')).toBe(true);
    expect(t.engine.services.notes.note(POOL)!.cached.meta.note_type).toBe('hypothesis');
    expect(split(t.vault.text(POOL))).toEqual({ fm: { ...before.fm, note_type: 'hypothesis' }, body: before.body });
    const [last] = await t.engine.services.governance.audit.recent({ limit: 1 });
    expect(last).toMatchObject({ action: 'note.write', actor: { kind: 'human', id: null }, target: POOL_ID, data: { path: POOL, field: 'note_type', before: 'observation', after: 'hypothesis' } });
  });

  test('the type it already has: nothing written, nothing audited', async () => {
    const memory = await t.engine.as(PERSON);
    await memory.notes.setNoteType(POOL, 'hypothesis');
    const entries = (await t.engine.services.governance.audit.recent({})).length;
    const text = t.vault.text(POOL);
    expect(await memory.notes.setNoteType(POOL, 'hypothesis')).toBe(false);
    expect(t.vault.text(POOL)).toBe(text);
    expect(await t.engine.services.governance.audit.recent({})).toHaveLength(entries);
  });

  test('a path names one file exactly: a title, a case variant or no note at all is not_found', async () => {
    const memory = await t.engine.as(PERSON);
    for (const ref of ['Pool sizing', 'project/atlas/pool sizing.md', 'project/atlas/Nothing.md']) {
      await expect(memory.notes.setNoteType(ref, 'hypothesis')).rejects.toMatchObject({ code: 'not_found', message: `No note at ${ref}.` });
    }
    expect(t.engine.services.notes.note(POOL)!.cached.meta.note_type).toBe('observation');
  });

  test('an agent is refused (it changes notes with lithos_write, under the write policy); the note stays as it was', async () => {
    const text = t.vault.text(POOL);
    const memory = await t.engine.as(AGENT);
    await expect(memory.notes.setNoteType(POOL, 'hypothesis')).rejects.toMatchObject({ code: 'forbidden' });
    expect(t.vault.text(POOL)).toBe(text);
    expect(await t.engine.services.governance.audit.recent({ action: 'note.write' })).toEqual([]);
  });
});
