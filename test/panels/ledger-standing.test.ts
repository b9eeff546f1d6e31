/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
jest.mock('obsidian', () => jest.requireActual('../plugin/fake-obsidian-dom'), { virtual: true });

import { jsdomSql, mountPanels, type Mounted } from './mount';
import { openExampleWorld, type ExampleWorld } from './example-world';
import { EXAMPLE_PATHS } from '../preview/example-activity';
import { PANEL_TYPES } from '../../plugin/panels/panel-types';
import type { NoteMemoryView } from '../../plugin/panels/note-memory-view';
import { note } from '../engine/harness';

/** The note memory panel shows a ledger entry's phase and vitality (plugin/panels/ledger-standing.ts), and nothing of the kind for other notes. */

const DECISION = 'decisions/Pool size.md';

let world: ExampleWorld;
let m: Mounted;

beforeEach(async () => {
  world = await openExampleWorld({ sql: await jsdomSql() });
  await world.vault.write(DECISION, note({ title: 'Pool size', note_type: 'decision', target: 'ingest/pool', created_at: new Date(world.clock.now()).toISOString() }, 'Keep the ingest pool at 40 connections.\n'));
  await world.engine.reconcile();
  m = mountPanels(world);
});

afterEach(async () => {
  await world.engine.close();
  document.body.innerHTML = '';
});

function fieldValue(root: HTMLElement, label: string): string | null {
  const row = Array.from(root.querySelectorAll('.lithos-field')).find((r) => r.querySelector('.lithos-field-label')?.textContent === label);
  return row?.querySelector('.lithos-field-value')?.textContent ?? null;
}

test('a decision shows its phase and vitality with since-when and its effective confidence', async () => {
  m.app.workspace.openFile(DECISION);
  const root = (await m.open<NoteMemoryView>(PANEL_TYPES.noteMemory)).contentEl;
  expect(fieldValue(root, 'Phase')).toMatch(/^pattern · since \d+ s ago$/);
  expect(fieldValue(root, 'Vitality')).toMatch(/^active · since \d+ s ago · confidence 1$/);
  expect(root.querySelector('.lithos-phase-pattern')).not.toBeNull();
});

test('a note of another type shows neither', async () => {
  m.app.workspace.openFile(EXAMPLE_PATHS.poolSize);
  const root = (await m.open<NoteMemoryView>(PANEL_TYPES.noteMemory)).contentEl;
  expect(fieldValue(root, 'Phase')).toBeNull();
  expect(fieldValue(root, 'Vitality')).toBeNull();
});
