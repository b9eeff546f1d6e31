import { note } from '../engine/harness';
import { AGENT, HUMAN, openTools, type ToolHarness } from '../tools/fixture';
import { findBlocks } from '../../shared/conflicts/callout-blocks';

/**
 * Contradiction precedence (docs/contradictions.md → Precedence): between two task records (or notes tagged
 * `status`) the newer one wins on its own — resolved `superseded`, audited, marked automatic, the older ranked
 * below the newer, neither note edited — and a person can confirm or reverse it. Other types stay unreviewed.
 */

const OLD_ID = '11111111-1111-4111-8111-111111111111';
const NEW_ID = '22222222-2222-4222-8222-222222222222';
const OLD = 'project/atlas/Atlas release gate.md';
const NEW = 'project/atlas/Gate check.md';

/** The older note names the query in its title, so it outranks the newer one when nothing settles them. */
function vault(note_type: string, tags: string[] = []): Record<string, string> {
  return {
    [OLD]: note(
      { id: OLD_ID, title: 'Atlas release gate', note_type, tags, entities: ['atlas-release'], updated_at: '2025-12-01T09:00:00Z' },
      '# Atlas release gate\n\nThe atlas release gate is enabled.\n',
    ),
    [NEW]: note(
      { id: NEW_ID, title: 'Gate check', note_type, tags, entities: ['atlas-release'], updated_at: '2025-12-20T09:00:00Z' },
      'Incident review done. The atlas release gate is disabled.\n',
    ),
  };
}

async function ranking(h: ToolHarness): Promise<string[]> {
  const r = await h.engine.services.retrieval.retrieve({ query_text: 'atlas release gate' }, { record: false, jitter: false, seed: 1 });
  return r.nodes.map((n) => n.id);
}

test('two contradicting task records: the newer wins on its own, audited and marked automatic; the older ranks below it, unedited', async () => {
  const h = await openTools(vault('task_record'));
  const before = h.vault.text(OLD)!;
  const { opened } = await h.engine.services.conflicts.scan();
  expect(opened).toHaveLength(1);
  const c = h.engine.services.conflicts.list()[0];
  expect(c).toMatchObject({
    state: 'superseded',
    provenance_actor: 'rule:status',
    evidence: { rule: 'status', resolution: { resolution: 'superseded', resolver: 'rule:newest_wins', winner_id: NEW_ID, loser_id: OLD_ID, automatic: true } },
  });
  const [audit] = await h.engine.services.governance.audit.recent({ action: 'conflict.resolve', target: c.edge_id });
  expect(audit).toMatchObject({ actor: { kind: 'rule', id: 'rule:newest_wins' }, data: { resolution: 'superseded', winner_id: NEW_ID, loser_id: OLD_ID, automatic: true, changes: [] } });
  // Not archived, frontmatter untouched: only the managed status callout saying how to review it was added.
  expect(h.engine.services.notes.note(OLD)!.cached.meta.status).not.toBe('archived');
  const blocks = findBlocks(h.vault.text(OLD)!);
  expect(blocks.map((b) => b.key)).toEqual(['status']);
  expect(h.vault.text(OLD)).toContain('settled automatically');
  expect(h.vault.text(OLD)).toContain(`superseded --winner ${OLD_ID}`);
  expect(h.vault.text(OLD)!.replace(/%% lithos:begin[\s\S]*?%% lithos:end %%\n\n?/, '')).toBe(before);
  expect(findBlocks(h.vault.text(NEW)!)).toEqual([]);
  const order = await ranking(h);
  expect(order.indexOf(NEW_ID)).toBeLessThan(order.indexOf(OLD_ID));
  await h.engine.close();
});

test('the same contradiction between two observations stays unreviewed for a person, and the older still ranks first', async () => {
  const h = await openTools(vault('observation'));
  await h.engine.services.conflicts.scan();
  expect(h.engine.services.conflicts.list().map((c) => c.state)).toEqual(['unreviewed']);
  const order = await ranking(h);
  expect(order.indexOf(OLD_ID)).toBeLessThan(order.indexOf(NEW_ID));
  await h.engine.close();
});

test('notes tagged status go by newest wins too; an agent writing the newer status settles it as soon as it is detected', async () => {
  const files = vault('observation', ['status']);
  const h = await openTools({ [OLD]: files[OLD] });
  await h.call('lithos_write', { path: NEW, title: 'Gate check', tags: ['status'], entities: ['atlas-release'], content: 'Incident review done. The atlas release gate is disabled.\n' }, AGENT);
  await h.engine.services.conflicts.drain();
  const written = h.engine.services.notes.note(NEW)!.nodeId;
  expect(h.engine.services.conflicts.list()).toEqual([expect.objectContaining({ state: 'superseded', evidence: expect.objectContaining({ resolution: expect.objectContaining({ winner_id: written, automatic: true }) }) })]);
  await h.engine.close();
});

test('a person reviews an automatic resolution: reversing it (both stand) restores the order; confirming it archives the older', async () => {
  const h = await openTools(vault('task_record'));
  await h.engine.services.conflicts.scan();
  const { edge_id } = h.engine.services.conflicts.list()[0];
  const reversed = await h.call('lithos_conflict_resolve', { edge_id, resolution: 'accepted_dual' }, HUMAN);
  expect(reversed).toMatchObject({ unchanged: false, conflict: { state: 'accepted_dual' } });
  expect(findBlocks(h.vault.text(OLD)!)).toEqual([]);
  const order = await ranking(h);
  expect(order.indexOf(OLD_ID)).toBeLessThan(order.indexOf(NEW_ID));
  await h.engine.close();

  const h2 = await openTools(vault('task_record'));
  await h2.engine.services.conflicts.scan();
  const c2 = h2.engine.services.conflicts.list()[0];
  const confirmed = await h2.call('lithos_conflict_resolve', { edge_id: c2.edge_id, resolution: 'superseded', winner_id: NEW_ID }, HUMAN);
  expect(confirmed).toMatchObject({ unchanged: false, conflict: { state: 'superseded', evidence: { resolution: { resolver: 'human', winner_id: NEW_ID } } } });
  expect(confirmed.conflict.evidence.resolution.automatic).toBeUndefined();
  expect(h2.engine.services.notes.note(OLD)!.cached.meta.status).toBe('archived');
  // A person's resolution is final, as before.
  const again = await h2.call('lithos_conflict_resolve', { edge_id: c2.edge_id, resolution: 'accepted_dual' }, HUMAN).catch((e: unknown) => e);
  expect(again).toMatchObject({ code: 'conflict' });
  await h2.engine.close();
});

test('a conflict a person opens between two task records is left for review', async () => {
  const h = await openTools(vault('task_record'));
  const r = await h.call('lithos_conflict_open', { a: OLD_ID, b: NEW_ID, evidence: 'gate on vs off' }, HUMAN);
  expect(r.conflict.state).toBe('unreviewed');
  await h.engine.services.conflicts.scan();
  expect(h.engine.services.conflicts.list().map((c) => c.state)).toEqual(['unreviewed']);
  await h.engine.close();
});
