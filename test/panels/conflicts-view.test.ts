/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
jest.mock('obsidian', () => jest.requireActual('../plugin/fake-obsidian-dom'), { virtual: true });

import { click, jsdomSql, mountPanels, settle, texts, type Mounted } from './mount';
import { openExampleWorld, type ExampleWorld } from './example-world';
import { EXAMPLE_PATHS } from '../preview/example-activity';
import { PANEL_TYPES } from '../../plugin/panels/panel-types';
import type { ConflictsView } from '../../plugin/panels/conflicts-view';
import { obsidianRecord, type Modal, type SuggestModal } from '../plugin/fake-obsidian-dom';
import { eventually } from '../eventually';

let world: ExampleWorld;
let m: Mounted;

beforeEach(async () => {
  world = await openExampleWorld({ sql: await jsdomSql() });
  m = mountPanels(world);
});

afterEach(async () => {
  await world.engine.close();
  document.body.innerHTML = '';
});

const card = (root: HTMLElement, edgeId: string): HTMLElement => root.querySelector(`[data-edge-id="${edgeId}"]`)!;

describe('conflicts panel', () => {
  test('the unreviewed queue: both notes side by side with their text, why it was opened, a button per resolution', async () => {
    const view = await m.open<ConflictsView>(PANEL_TYPES.conflicts);
    const root = view.contentEl;
    expect(root.querySelector('.lithos-panel-title')?.textContent).toBe('Unreviewed conflicts (2)');
    const [poolVsIndex, retry] = world.activity.conflicts;
    const c1 = card(root, poolVsIndex);
    expect(texts(c1, '.lithos-conflict-side-title')).toEqual(['AIngest p95 regression caused by pool size', 'BIngest p95 regression caused by missing index']);
    expect(c1.querySelector('.lithos-conflict-reason')?.textContent).toBe('Both claim to be the root cause of INC-142 · opened by reviewer');
    const snippets = texts(c1, '.lithos-conflict-snippet');
    expect(snippets.every((s) => s.length > 40)).toBe(true);
    expect(snippets[0]).not.toBe(snippets[1]);
    expect(Array.from(c1.querySelectorAll('[data-resolution]')).map((b) => b.getAttribute('data-resolution'))).toEqual([
      'accepted_dual',
      'superseded:a',
      'superseded:b',
      'refuted:a',
      'refuted:b',
      'merged',
    ]);
    expect(card(root, retry).querySelector('.lithos-conflict-reason')?.textContent).toMatch(/· opened by you$/);
  });

  test('resolving changes the conflict state in the store and takes it off the queue', async () => {
    const view = await m.open<ConflictsView>(PANEL_TYPES.conflicts);
    const [poolVsIndex, retry] = world.activity.conflicts;
    await click(card(view.contentEl, retry).querySelector('[data-resolution="superseded:a"]'), view);
    // On a busy machine the resolution can outlast click()'s turns: wait for it, then for the redraw it starts.
    await eventually(() => world.engine.services.conflicts.get(retry)?.state === 'superseded', () => world.engine.services.conflicts.get(retry));
    await eventually(() => card(view.contentEl, retry) === null, () => view.contentEl.textContent);
    const c = world.engine.services.conflicts.get(retry)!;
    expect(c.state).toBe('superseded');
    expect(c.evidence.resolution).toMatchObject({ resolution: 'superseded', resolver: 'human', winner_id: world.engine.services.notes.note(EXAMPLE_PATHS.retryV2)!.nodeId });
    expect(view.contentEl.querySelector('.lithos-panel-title')?.textContent).toBe('Unreviewed conflicts (1)');
    expect(card(view.contentEl, retry)).toBeNull();
    expect(card(view.contentEl, poolVsIndex)).not.toBeNull();
  });

  test('a conflict newest wins settled on its own is listed for review after the queue; "Both stand" reverses it', async () => {
    const c = world.engine.services.conflicts;
    const older = world.engine.services.notes.note('project/atlas/tasks/TASK-311 raise ingest pool size to 40.md')!.nodeId;
    const newer = world.engine.services.notes.note('project/atlas/tasks/TASK-325 load test worker batch sizes.md')!.nodeId;
    const { conflict } = await c.open({ a: older, b: newer, evidence: 'batch size 40 vs 64', actor: { kind: 'agent', id: 'scout-7' } });
    expect(conflict.evidence.resolution).toMatchObject({ automatic: true, winner_id: newer });
    const view = await m.open<ConflictsView>(PANEL_TYPES.conflicts);
    expect(view.contentEl.querySelector('.lithos-panel-title')?.textContent).toBe('Unreviewed conflicts (2)');
    expect(view.contentEl.querySelector('.lithos-panel-subtitle')?.textContent).toBe('Settled automatically, to review (1)');
    // The older task record's status callout links to the resolve dialog, which opens for an automatic resolution.
    const text = new TextDecoder().decode(await world.vault.readBytes(world.engine.services.notes.note(older)!.path));
    const link = /\[in Obsidian\]\((obsidian:\/\/lithos-resolve\?edge=[^)]+)\)/.exec(text)?.[1];
    expect(link).toBe(`obsidian://lithos-resolve?edge=${encodeURIComponent(conflict.edge_id)}`);
    const modals = obsidianRecord.modals.length;
    m.plugin.openUri(link!);
    await eventually(() => obsidianRecord.modals.length > modals, () => obsidianRecord.notices);
    expect((obsidianRecord.modals.at(-1) as Modal).titleEl.textContent).toBe('Resolve a conflict');
    (obsidianRecord.modals.at(-1) as Modal).close();
    const auto = card(view.contentEl, conflict.edge_id);
    expect(auto.querySelector('.lithos-conflict-state.is-automatic')?.textContent).toMatch(/^Settled automatically \(newest wins\): superseded by B, the newer/);
    await click(auto.querySelector('[data-resolution="accepted_dual"]'), view);
    await eventually(() => c.get(conflict.edge_id)?.state === 'accepted_dual', () => c.get(conflict.edge_id));
    await eventually(() => card(view.contentEl, conflict.edge_id) === null, () => view.contentEl.textContent);
    expect(c.get(conflict.edge_id)!.evidence.resolution).toMatchObject({ resolution: 'accepted_dual', resolver: 'human' });
    expect(view.contentEl.querySelector('.lithos-panel-subtitle')).toBeNull();
  });

  test('merged asks for the merge note first; cancelling resolves nothing', async () => {
    const view = await m.open<ConflictsView>(PANEL_TYPES.conflicts);
    const [poolVsIndex] = world.activity.conflicts;
    await click(card(view.contentEl, poolVsIndex).querySelector('[data-resolution="merged"]'));
    const pick = obsidianRecord.modals.at(-1) as SuggestModal<{ id: string; path: string }>;
    pick.close();
    await settle(view);
    expect(world.engine.services.conflicts.get(poolVsIndex)!.state).toBe('unreviewed');

    await click(card(view.contentEl, poolVsIndex).querySelector('[data-resolution="merged"]'));
    const pick2 = obsidianRecord.modals.at(-1) as SuggestModal<{ id: string; path: string }>;
    const [incident] = await pick2.type('INC-142 ingest');
    expect(incident.path).toBe(EXAMPLE_PATHS.incident);
    pick2.choose(incident);
    await settle(view);
    expect(world.engine.services.conflicts.get(poolVsIndex)).toMatchObject({ state: 'merged', evidence: { resolution: { winner_id: incident.id } } });
    expect(view.contentEl.querySelector('.lithos-panel-title')?.textContent).toBe('Unreviewed conflicts (1)');
  });

  test('the resolve-conflict command: pick an unreviewed conflict, resolve it in the modal', async () => {
    m.plugin.command('resolve-conflict').callback!();
    await settle();
    const pick = obsidianRecord.modals.at(-1) as SuggestModal<{ label: string; value: { edge_id: string } }>;
    const choices = await pick.type('');
    expect(choices.map((c) => c.label)).toEqual(['Ingest p95 regression caused by pool size ⟷ Ingest p95 regression caused by missing index', 'Atlas retry policy v2 ⟷ Atlas retry policy v1']);
    pick.choose(choices[0]);
    await settle();
    const modal = obsidianRecord.modals.at(-1) as Modal;
    expect(modal.titleEl.textContent).toBe('Resolve a conflict');
    await click(modal.contentEl.querySelector('[data-resolution="accepted_dual"]'));
    expect(world.engine.services.conflicts.get(world.activity.conflicts[0])!.state).toBe('accepted_dual');
    expect(modal.isOpen).toBe(false);
  });

  test("a conflict callout's link (obsidian://lithos-resolve?edge=…) opens the resolve dialog for that conflict; a settled one says so", async () => {
    const edge = world.activity.conflicts[0];
    const callout = new TextDecoder().decode(await world.vault.readBytes(world.engine.services.notes.note(world.engine.services.conflicts.get(edge)!.a)!.path));
    const link = /\[in Obsidian\]\((obsidian:\/\/lithos-resolve\?edge=[^)]+)\)/.exec(callout)?.[1];
    expect(link).toBe(`obsidian://lithos-resolve?edge=${encodeURIComponent(edge)}`);
    m.plugin.openUri(link!);
    await settle();
    const modal = obsidianRecord.modals.at(-1) as Modal;
    expect(modal.titleEl.textContent).toBe('Resolve a conflict');
    await click(modal.contentEl.querySelector('[data-resolution="accepted_dual"]'));
    expect(world.engine.services.conflicts.get(edge)!.state).toBe('accepted_dual');

    m.plugin.openUri(link!);
    // The store lookup behind the notice is asynchronous: a fixed number of ticks ran out under full-suite load.
    await eventually(() => /is not open any more/.test(String(obsidianRecord.notices.at(-1))), () => obsidianRecord.notices);
  });

  test("drift at the foot: a 20-day-old contested claim with its age, threshold and what to do; a title stays text", async () => {
    const updated = new Date(world.clock.now() - 20 * 24 * 3600 * 1000).toISOString();
    world.vault.put('ledger/Old claim.md', `---\ntitle: "<img src=x onerror=alert(1)> pool claim"\nnote_type: claim\nstate: contested\nevidence: ["[[${EXAMPLE_PATHS.poolSize.replace(/\.md$/, '')}]]"]\nupdated_at: ${updated}\n---\nThe pool is too small.\n`, false);
    await world.engine.reconcile();
    const view = await m.open<ConflictsView>(PANEL_TYPES.conflicts);
    const alert = view.contentEl.querySelector('.lithos-drift-alert[data-kind="contested_claim"]')!;
    expect(alert.querySelector('.lithos-note-link')?.textContent).toMatch(/<img src=x onerror=alert\(1\)> pool claim$/);
    expect(alert.querySelector('img')).toBeNull();
    expect(alert.querySelector('.lithos-drift-what')?.textContent).toBe(' · contested claim · 20 d (over 14)');
    expect(alert.querySelector('.lithos-drift-todo')?.textContent).toMatch(/believed or refuted/);
    expect(view.contentEl.querySelector('.lithos-drift h5')?.textContent).toMatch(/^Drift \(\d+\)$/);
  });
});
