/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
jest.mock('obsidian', () => jest.requireActual('../plugin/fake-obsidian-dom'), { virtual: true });

import { jsdomSql, mountPanels, texts, type Mounted } from './mount';
import { openExampleWorld, type ExampleWorld } from './example-world';
import { EXAMPLE_PATHS } from '../preview/example-activity';
import { PANEL_TYPES } from '../../plugin/panels/panel-types';
import type { NoteMemoryView } from '../../plugin/panels/note-memory-view';

let world: ExampleWorld;
let m: Mounted;

const CLAIM = 'ledger/Pool claim.md';
const CONSTRUCT = 'ledger/Session store.md';
const WORKFLOW = 'ledger/Investigation.md';
const DECISION = 'ledger/Pool decision.md';

beforeEach(async () => {
  world = await openExampleWorld({ sql: await jsdomSql() });
  const put = (path: string, fm: string, body: string) => world.vault.put(path, `---\n${fm}\n---\n${body}`, false);
  put(
    CLAIM,
    ['note_type: claim', 'ledger_id: E007', 'state: contested', 'evidence:', `  - "[[${EXAMPLE_PATHS.poolSize.replace(/\.md$/, '')}|pool finding]]"`, '  - {ref: "[[Nowhere]]", stance: refutes}', '  - {ref: rcpt_0042, stance: refutes}'].join('\n'),
    '# The pool is too small\n',
  );
  put(CONSTRUCT, 'note_type: construct\nstate: Active\nmodifiers: [has debt]\ncode: [src/auth/session.ts, "https://example.com/repo/session.ts", "<img src=x onerror=alert(1)>"]', '# SessionStore\n');
  put(WORKFLOW, 'note_type: workflow\nstate: current\ncontext: Bug investigations\nmethod: Trace against real data', '# Investigation\n');
  put(DECISION, 'note_type: decision\nstate: dead', '# Pool\n');
  await world.engine.reconcile();
  m = mountPanels(world);
});

afterEach(async () => {
  await world.engine.close();
  document.body.innerHTML = '';
});

async function openOn(path: string): Promise<HTMLElement> {
  m.app.workspace.openFile(path);
  const view = await m.open<NoteMemoryView>(PANEL_TYPES.noteMemory);
  return view.contentEl.querySelector('.lithos-ledger') as HTMLElement;
}

function fieldValue(root: HTMLElement, label: string): string {
  const row = Array.from(root.querySelectorAll('.lithos-field')).find((r) => r.querySelector('.lithos-field-label')?.textContent === label);
  return row?.querySelector('.lithos-field-value')?.textContent ?? '(missing)';
}

describe('note memory panel: the ledger section', () => {
  test('a claim: kind, ID, state in capitals, the evidence chain with each resolving ref as a link that opens the note', async () => {
    const box = await openOn(CLAIM);
    expect(box.querySelector('h5')?.textContent).toBe('Ledger: claim');
    expect(fieldValue(box, 'ID')).toBe('E007');
    expect(fieldValue(box, 'State')).toBe('CONTESTED');
    expect(texts(box, '.lithos-ledger-evidence .lithos-row')).toEqual(['SUPPORTSpool finding', 'REFUTES[[Nowhere]]', 'REFUTESrcpt_0042']);
    const link = box.querySelector('.lithos-ledger-evidence a.lithos-note-link') as HTMLElement;
    expect(link.getAttribute('data-path')).toBe(EXAMPLE_PATHS.poolSize);
    expect(box.querySelectorAll('.lithos-ledger-evidence .is-unresolved')).toHaveLength(2);
    link.dispatchEvent(new MouseEvent('click'));
    expect(m.app.workspace.opened.at(-1)).toBe(EXAMPLE_PATHS.poolSize);
  });

  test('a construct: ACTIVE with its modifier HAS DEBT, code pointers as text (a URL as a link), no markup from the note', async () => {
    const box = await openOn(CONSTRUCT);
    expect(fieldValue(box, 'State')).toBe('ACTIVEHAS DEBT');
    expect(box.querySelector('.lithos-ledger-modifier')?.textContent).toBe('HAS DEBT');
    expect(texts(box, '.lithos-ledger-code .lithos-row')).toEqual(['src/auth/session.ts', 'https://example.com/repo/session.ts', '<img src=x onerror=alert(1)>']);
    expect(box.querySelector('.lithos-ledger-code a')?.getAttribute('href')).toBe('https://example.com/repo/session.ts');
    expect(box.querySelector('img')).toBeNull();
  });

  test('a workflow: context, trigger and method (an absent one as a dash)', async () => {
    const box = await openOn(WORKFLOW);
    expect(fieldValue(box, 'State')).toBe('CURRENT');
    expect([fieldValue(box, 'Context'), fieldValue(box, 'Trigger'), fieldValue(box, 'Method')]).toEqual(['Bug investigations', '—', 'Trace against real data']);
  });

  test('a decision: target and rationale, and the rules it breaks as doctor lists them', async () => {
    const box = await openOn(DECISION);
    expect(fieldValue(box, 'State')).toBe('ACTIVE');
    expect(fieldValue(box, 'Target')).toBe('—');
    const rules = texts(box, '.lithos-ledger-rules .lithos-row');
    expect(rules).toHaveLength(3);
    expect(rules[0]).toMatch(/^"dead" is a state of a construct, not of a decision/);
    expect(box.querySelectorAll('.lithos-ledger-rules .is-broken')).toHaveLength(2); // state and target; the rationale is advice
  });

  test('a note of another type has no ledger section', async () => {
    m.app.workspace.openFile(EXAMPLE_PATHS.poolSize);
    const view = await m.open<NoteMemoryView>(PANEL_TYPES.noteMemory);
    expect(view.contentEl.querySelector('.lithos-panel-title')).not.toBeNull();
    expect(view.contentEl.querySelector('.lithos-ledger')).toBeNull();
  });
});
