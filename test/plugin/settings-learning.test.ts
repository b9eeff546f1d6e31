/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
jest.mock('obsidian', () => jest.requireActual('./fake-obsidian-dom'), { virtual: true });

import { jsdomSql } from '../panels/mount';
import { learningSection } from '../../plugin/settings-learning';
import { engineControls } from '../../plugin/engine-controls';
import { defaultSettings, type LithosSettings } from '../../plugin/settings';
import { LEARNING_FILE } from '../../shared/learning/learning-store';
import { DEFAULT_LEARNING, TUNABLES } from '../../shared/learning/tunables';
import { FEEDBACK } from '../../shared/learning/constants';
import type { MemoryEngine } from '../../shared/engine';
import { openHarness, type Harness } from '../engine/harness';
import { eventually } from '../eventually';

/** Settings → Learning in jsdom: one field per tunable constant, saved through engine.services.learning.tunables, refused when out of range. */

let h: Harness | null = null;
afterEach(async () => {
  await h?.engine.close();
  h = null;
  document.body.empty();
});

function render(engine: MemoryEngine | null): HTMLElement {
  const el = document.body.createDiv();
  const settings: LithosSettings = defaultSettings();
  learningSection(el, { settings: () => settings, save: async (fn) => fn(settings), controls: () => engine && engineControls(engine.services) });
  return el;
}

async function withEngine(files: Record<string, string> = {}): Promise<{ engine: MemoryEngine; el: HTMLElement }> {
  h = await openHarness({}, { deps: { sql: await jsdomSql() } });
  for (const [name, text] of Object.entries(files)) await h.blobs.writeAtomic(name, new TextEncoder().encode(text));
  await h.engine.services.learning.tunables.reload();
  return { engine: h.engine, el: render(h.engine) };
}

function row(el: HTMLElement, name: string): HTMLElement {
  const r = Array.from(el.querySelectorAll<HTMLElement>('.setting-item')).find((x) => x.querySelector('.setting-item-name')?.textContent === name);
  if (!r) throw new Error(`no row "${name}"`);
  return r;
}
const input = (el: HTMLElement, name: string) => row(el, name).querySelector('input')!;
const heading = (el: HTMLElement) => row(el, 'Learning constants').querySelector('.setting-item-description')!.textContent ?? '';

function type(i: HTMLInputElement, value: string): void {
  i.value = value;
  i.dispatchEvent(new Event('input'));
}
/** Types and commits (Enter or leaving the field fire `change`). */
function enter(i: HTMLInputElement, value: string): void {
  type(i, value);
  i.dispatchEvent(new Event('change'));
}

test('memory not open: says so instead of showing the constants', () => {
  const el = render(null);
  expect(heading(el)).toBe('Open the memory first: the learning constants live in the vault (.lithos/learning.json).');
  expect(el.querySelectorAll('.setting-item')).toHaveLength(5); // heading, two schedules, constants heading, devices heading
});

test('one field per tunable constant: its default as placeholder, its override (if any) as value', async () => {
  const { el } = await withEngine({ [LEARNING_FILE]: '{"feedback": {"quarantine_at": 4}}' });
  for (const t of TUNABLES) expect(input(el, t.key).placeholder).toBe(String((DEFAULT_LEARNING[t.group] as Record<string, number>)[t.name]));
  expect(input(el, 'feedback.quarantine_at').value).toBe('4');
  expect(input(el, 'feedback.used_salience').value).toBe('');
  expect(row(el, 'feedback.ignored_salience').querySelector('.setting-item-description')!.textContent).toContain('Default -0.02; a number from -1 to 0.');
});

test('an edited field is saved to learning.json and applies at once; emptying it puts the default back', async () => {
  const { engine, el } = await withEngine();
  enter(input(el, 'feedback.used_salience'), ' 0.05 ');
  await eventually(() => engine.services.learning.tunables.get().feedback.used_salience === 0.05, () => engine.services.learning.tunables.get().feedback); // the store writes asynchronously
  expect(input(el, 'feedback.used_salience').validationMessage).toBe('');
  expect(JSON.parse(new TextDecoder().decode((await h!.blobs.read(LEARNING_FILE))!))).toEqual({ version: 1, feedback: { used_salience: 0.05 } });
  expect((await engine.services.governance.audit.recent({ action: 'learning.set' }))[0].data).toMatchObject({ changed: { 'feedback.used_salience': [FEEDBACK.used_salience, 0.05] } });
  enter(input(el, 'feedback.used_salience'), '');
  await eventually(() => engine.services.learning.tunables.get().feedback.used_salience === FEEDBACK.used_salience, () => engine.services.learning.tunables.get().feedback);
});

test('typing is checked as it goes but saved only when committed: no half-typed value is applied or audited', async () => {
  const { engine, el } = await withEngine();
  const i = input(el, 'feedback.used_salience');
  for (const partial of ['0', '0.', '0.0', '0.03', '0.035']) type(i, partial);
  await new Promise((r) => setTimeout(r, 20));
  expect(engine.services.learning.tunables.get()).toEqual(DEFAULT_LEARNING);
  expect(await engine.services.governance.audit.recent({ action: 'learning.set' })).toHaveLength(0);
  i.dispatchEvent(new Event('change'));
  await eventually(() => engine.services.learning.tunables.get().feedback.used_salience === 0.035);
  expect(await engine.services.governance.audit.recent({ action: 'learning.set' })).toHaveLength(1);
});

test.each([
  ['feedback.ignored_salience', '0.1', 'feedback.ignored_salience must be a number from -1 to 0 (got 0.1).'],
  ['feedback.quarantine_at', '2.5', 'feedback.quarantine_at must be a whole number from 1 to 1000 (got 2.5).'],
  ['decay.edge_half_life_days', 'soon', 'decay.edge_half_life_days must be a number above 0, at most 3650 (got "soon").'],
])('%s = %s is refused with a message on the field and not saved', async (key, value, message) => {
  const { engine, el } = await withEngine();
  const i = input(el, key);
  let reported = 0;
  i.addEventListener('invalid', () => reported++);
  enter(i, value);
  expect(i.validationMessage).toBe(message);
  expect(reported).toBe(2); // as typed, and again when committed
  expect(engine.services.learning.tunables.get()).toEqual(DEFAULT_LEARNING);
  expect(await h!.blobs.read(LEARNING_FILE)).toBeNull();
  type(i, '');
  expect(i.validationMessage).toBe('');
});

test('Reset to defaults clears every override and every field', async () => {
  const { engine, el } = await withEngine({ [LEARNING_FILE]: '{"feedback": {"quarantine_at": 4}, "decay": {"edge_half_life_days": 30}}' });
  enter(input(el, 'support.lexical_share'), '0.4');
  await eventually(() => engine.services.learning.tunables.get().support.lexical_share === 0.4);
  row(el, 'Reset to defaults').querySelector('button')!.click();
  await eventually(() => input(el, 'feedback.quarantine_at').value === '');
  expect(engine.services.learning.tunables.get()).toEqual(DEFAULT_LEARNING);
  expect(TUNABLES.map((t) => input(el, t.key).value).every((v) => v === '')).toBe(true);
  expect((await engine.services.governance.audit.recent({ action: 'learning.set' }))[0].data).toMatchObject({ overrides: {}, changed: { 'feedback.quarantine_at': [4, 3], 'decay.edge_half_life_days': [30, 90], 'support.lexical_share': [0.4, 0.5] } });
});

test('a damaged learning.json: the heading says why and that a change replaces it', async () => {
  const { el } = await withEngine({ [LEARNING_FILE]: '{ nope' });
  expect(heading(el)).toMatch(/^\.lithos\/learning\.json is not valid JSON .* Learning uses the default constants until \.lithos\/learning\.json is fixed\. A change here replaces the file\.$/);
});
