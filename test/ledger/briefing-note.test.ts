import { BRIEFING_NOTE_PATH, BRIEFING_TAG } from '../../shared/ledger/briefing';
import { parseLearningOverrides } from '../../shared/learning/tunables';
import { BRIEFING_DEBOUNCE_MS } from '../../shared/session/briefing-note';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { createDispatcher } from '../../shared/tools/dispatcher';
import type { ToolCaller } from '../../shared/tools/types';
import { note, openHarness, type Harness } from '../engine/harness';
import { protectedNote } from '../../shared/vault/note-editors';

/**
 * The person's briefing note (session/briefing-note.ts): written by the engine as rule `briefing` at
 * learning.json's briefing.path, a debounce after notes change (one write for a burst), not rewritten while
 * the briefing is the same, readable by the person only, and kept only where the host asks for it.
 */

const HUMAN: ToolCaller = { kind: 'human', agent_id: null };
const AGENT: ToolCaller = { kind: 'agent', agent_id: 'agent-a' };
const FILES = { 'decisions/Pool.md': note({ title: 'Pool of 40', note_type: 'decision', target: 'connection pool', ledger_id: 'D001-aaaa' }, 'Forty.\n') };

async function open(briefingNote = true) {
  const h = await openHarness(FILES, { deps: { briefingNote } });
  await h.engine.reconcile();
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine, deleteTo: 'trash_folder' }));
  return { ...h, call: (name: string, args: unknown, caller: ToolCaller = HUMAN) => tools.call(name, args, caller) as Promise<any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results
}

/** Lets the fired timer's regeneration finish (settle waits for a run under way; no timer is left to cut short). */
async function regenerations(h: Harness): Promise<number> {
  await h.engine.settle();
  return (await h.engine.services.governance.audit.recent({ action: 'note.write', limit: 500 })).filter((e) => e.actor.kind === 'rule' && e.actor.id === 'briefing').length;
}

test('after a full scan the note is written once things are quiet, by rule briefing, for the person only', async () => {
  const h = await open();
  expect(h.clock.dueIn()).toContain(BRIEFING_DEBOUNCE_MS);
  h.clock.advance(BRIEFING_DEBOUNCE_MS - 1);
  await h.engine.idle();
  expect(h.vault.text(BRIEFING_NOTE_PATH)).toBeUndefined();
  h.clock.advance(1);
  expect(await regenerations(h)).toBe(1);
  const text = h.vault.text(BRIEFING_NOTE_PATH);
  expect(text).toContain('D001-aaaa "Pool of 40"');
  expect(text).toMatch(/^access_scope: user_private$/m);
  expect(text).toContain(BRIEFING_TAG);
  // Not the person's note (the engine's own write), and not for agents to read.
  expect(protectedNote(h.engine.services.notes.ownership(h.engine.services.notes.note(BRIEFING_NOTE_PATH)!))).toBe(false);
  await expect(h.call('lithos_read', { path: BRIEFING_NOTE_PATH }, AGENT)).rejects.toMatchObject({ code: 'not_found' });
  await h.engine.close();
});

test("the person's retrieval and search leave the briefing out (a digest would crowd out its notes); read by path it is there", async () => {
  const h = await open();
  h.clock.advance(BRIEFING_DEBOUNCE_MS);
  expect(await regenerations(h)).toBe(1);
  await h.engine.settle();
  const briefing = h.engine.services.notes.note(BRIEFING_NOTE_PATH)!;
  const retrieved = await h.call('lithos_retrieve', { query_text: 'Pool of 40 connection pool decision briefing', try: true });
  expect(retrieved.nodes.map((n: { id: string }) => n.id)).toContain(h.engine.services.notes.note('decisions/Pool.md')!.nodeId);
  expect(retrieved.nodes.map((n: { id: string }) => n.id)).not.toContain(briefing.nodeId);
  const found = await h.call('lithos_search', { query: 'Briefing Pool of 40' });
  expect(found.results.map((r: { path: string }) => r.path)).not.toContain(BRIEFING_NOTE_PATH);
  expect((await h.call('lithos_read', { path: BRIEFING_NOTE_PATH })).content).toContain('D001-aaaa');
  await h.engine.close();
});

test('a burst of changes makes one regeneration, and a change that leaves the briefing as it was makes none', async () => {
  const h = await open();
  h.clock.advance(BRIEFING_DEBOUNCE_MS);
  expect(await regenerations(h)).toBe(1);
  for (let i = 0; i < 3; i++) {
    await h.call('lithos_write', { title: `Claim ${i}`, namespace: 'claims', note_type: 'claim', evidence: ['[[Pool of 40]]'], content: `Claim ${i}.\n` });
    h.clock.advance(BRIEFING_DEBOUNCE_MS / 2);
  }
  await h.engine.idle();
  expect(h.vault.text(BRIEFING_NOTE_PATH)).not.toContain('Claim 0');
  h.clock.advance(BRIEFING_DEBOUNCE_MS);
  expect(await regenerations(h)).toBe(2);
  expect(h.vault.text(BRIEFING_NOTE_PATH)).toMatch(/"Claim 0" is unverified[\s\S]*"Claim 2" is unverified|"Claim 2" is unverified[\s\S]*"Claim 0" is unverified/);
  // A note outside the ledger changes nothing the briefing shows: the note is not written again.
  await h.call('lithos_write', { title: 'Plain', namespace: 'notes', content: 'Nothing ledger.\n' });
  h.clock.advance(BRIEFING_DEBOUNCE_MS);
  expect(await regenerations(h)).toBe(2);
  await h.engine.close();
});

test('a host that does not keep the note never writes it', async () => {
  const h = await open(false);
  expect(h.clock.pendingCount()).toBe(h.clock.dueIn().filter((ms) => ms !== BRIEFING_DEBOUNCE_MS).length);
  await h.call('lithos_write', { title: 'Claim', namespace: 'claims', note_type: 'claim', evidence: ['x'], content: 'C.\n' });
  await h.engine.settle();
  h.clock.advance(BRIEFING_DEBOUNCE_MS * 2);
  await h.engine.close();
  expect(h.vault.text(BRIEFING_NOTE_PATH)).toBeUndefined();
});

test('learning.json names the path, or null for none; a path outside the vault\'s notes is refused', async () => {
  expect(parseLearningOverrides({ briefing: { path: 'Me/Brief.md' } })).toEqual({ briefing: { path: 'Me/Brief.md' } });
  expect(parseLearningOverrides({ briefing: { path: null } })).toEqual({ briefing: { path: null } });
  expect(parseLearningOverrides({ briefing: { path: BRIEFING_NOTE_PATH } })).toEqual({});
  for (const bad of ['../out.md', '.lithos/b.md', 'a/.obsidian/b.md', 'Brief.txt', '/abs.md']) {
    expect(() => parseLearningOverrides({ briefing: { path: bad } })).toThrow(/briefing\.path/);
  }
  const h = await open();
  await h.engine.services.learning.tunables.set({ briefing: { path: 'Me/Brief.md' } });
  h.clock.advance(BRIEFING_DEBOUNCE_MS);
  expect(await regenerations(h)).toBe(1);
  expect(h.vault.text('Me/Brief.md')).toBeDefined();
  expect(h.vault.text(BRIEFING_NOTE_PATH)).toBeUndefined();
  await h.engine.close();
});

test('a vault with nothing to brief gets no note', async () => {
  const h = await openHarness({ 'notes/Plain.md': note({ title: 'Plain' }, 'Nothing ledger.\n') }, { deps: { briefingNote: true } });
  await h.engine.reconcile();
  h.clock.advance(BRIEFING_DEBOUNCE_MS);
  expect(await regenerations(h)).toBe(0);
  expect(h.vault.text(BRIEFING_NOTE_PATH)).toBeUndefined();
  await h.engine.close();
});
