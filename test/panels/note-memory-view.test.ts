/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
jest.mock('obsidian', () => jest.requireActual('../plugin/fake-obsidian-dom'), { virtual: true });

import { click, jsdomSql, mountPanels, settle, texts, type Mounted } from './mount';
import { openExampleWorld, type ExampleWorld } from './example-world';
import { EXAMPLE_PATHS } from '../preview/example-activity';
import { PANEL_TYPES } from '../../plugin/panels/panel-types';
import type { NoteMemoryView } from '../../plugin/panels/note-memory-view';
import { obsidianRecord, type SuggestModal } from '../plugin/fake-obsidian-dom';
import { strokeFor } from '../../plugin/panels/neighbourhood-graph';

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

async function openOn(path: string): Promise<NoteMemoryView> {
  m.app.workspace.openFile(path);
  return m.open<NoteMemoryView>(PANEL_TYPES.noteMemory);
}

function fieldValue(root: HTMLElement, label: string): string {
  const row = Array.from(root.querySelectorAll('.lithos-field')).find((r) => r.querySelector('.lithos-field-label')?.textContent === label);
  return row?.querySelector('.lithos-field-value')?.textContent ?? '(missing)';
}

describe('note memory panel', () => {
  test('shows the active note: type, namespace, scope, status, learned stats from the store', async () => {
    const view = await openOn(EXAMPLE_PATHS.poolSize);
    const root = view.contentEl;
    const note = world.engine.services.notes.note(EXAMPLE_PATHS.poolSize)!;
    const s = world.engine.services.learning.memory.stats.get(note.nodeId);
    expect(root.querySelector('.lithos-panel-title')?.textContent).toBe('Ingest p95 regression caused by pool size');
    expect(fieldValue(root, 'Type')).toBe('agent_finding');
    expect(fieldValue(root, 'Namespace')).toBe(note.cached.meta.namespace);
    expect(fieldValue(root, 'Access')).toBe(note.cached.meta.access_scope);
    expect(fieldValue(root, 'Status')).toBe('active');
    expect(fieldValue(root, 'Salience')).toBe(s.salience.toFixed(2));
    // scout-7 retrieved it and cited it: one retrieval at least, one use.
    expect(s.retrieval_count).toBeGreaterThanOrEqual(1);
    expect(fieldValue(root, 'Retrieved')).toMatch(new RegExp(`^${s.retrieval_count}× · last \\d+ min ago$`));
    expect(fieldValue(root, 'Used')).toMatch(/^1× · last \d+ min ago$/);
  });

  test('a ledger entry\'s title line starts with its ledger ID', async () => {
    await world.engine.services.notes.writeNote({ path: 'Claims/Sessions expire.md', mode: 'create', content: 'After 30 idle minutes.\n', fields: { title: 'Sessions expire', note_type: 'claim' }, actor: null });
    const id = world.engine.services.notes.note('Claims/Sessions expire.md')!.cached.ledgerId!;
    expect(id).toMatch(/^E001-[a-z2-7]{4}$/);
    const root = (await openOn('Claims/Sessions expire.md')).contentEl;
    expect(root.querySelector('.lithos-panel-title')?.textContent).toBe(`${id} Sessions expire`);
    expect(root.querySelector('.lithos-panel-title .lithos-ledger-id')?.textContent).toBe(`${id} `);
  });

  test('typed edges in and out with weight and provenance, the conflict, and the receipts that surfaced it', async () => {
    const view = await openOn(EXAMPLE_PATHS.poolSize);
    const root = view.contentEl;
    const out = texts(root, '.lithos-edges-out .lithos-row');
    expect(out).toEqual(
      expect.arrayContaining([
        'supportsINC-142: ingest latency regression (summary)0.80agent: scout-7',
        'is_example_ofConnection pooling0.60agent: scout-7',
        'contradictsIngest p95 regression caused by missing index1.00agent: reviewer',
        // scout-7 cited both: feedback's rule edge between notes used together.
        expect.stringMatching(/^related_toINC-142: ingest latency regression \(summary\)0\.\d\drule: learning\.feedback$/),
      ]),
    );
    expect(texts(root, '.lithos-note-conflicts .lithos-row')[0]).toMatch(/^unreviewedIngest p95 regression caused by missing indexResolve…$/);
    const receipts = texts(root, '.lithos-note-receipts .lithos-row');
    expect(receipts.some((r) => r.includes('scout-7') && r.includes('“ingest p95 latency regression root cause”'))).toBe(true);
  });

  test('the SVG neighbourhood: one line per neighbour, thickness from the weight, contradicts marked, click opens the note', async () => {
    const view = await openOn(EXAMPLE_PATHS.poolSize);
    const svg = view.contentEl.querySelector('svg.lithos-graph')!;
    const lines = Array.from(svg.querySelectorAll('line'));
    expect(lines).toHaveLength(3);
    const supports = lines.find((l) => l.getAttribute('data-type') === 'supports')!;
    expect(Number(supports.getAttribute('stroke-width'))).toBe(strokeFor(0.8));
    expect(lines.filter((l) => l.classList.contains('is-contradicts'))).toHaveLength(1);
    const target = svg.querySelector(`g[data-path="${EXAMPLE_PATHS.pooling}"]`)!;
    target.dispatchEvent(new MouseEvent('click'));
    expect(m.app.workspace.opened).toEqual([EXAMPLE_PATHS.pooling]);
  });

  test('follows the active note', async () => {
    const view = await openOn(EXAMPLE_PATHS.poolSize);
    m.app.workspace.openFile(EXAMPLE_PATHS.retryV1);
    await view.rendered;
    expect(view.contentEl.querySelector('.lithos-panel-title')?.textContent).toBe('Atlas retry policy v1');
    expect(view.shownPath).toBe(EXAMPLE_PATHS.retryV1);
  });

  test('set type: the suggest modal lists the note types, choosing one edits the frontmatter and audits it', async () => {
    const view = await openOn(EXAMPLE_PATHS.poolSize);
    await click(view.contentEl.querySelector('.lithos-actions button'));
    const modal = obsidianRecord.modals.at(-1) as SuggestModal<{ value: string }>;
    const choices = await modal.type('hypo');
    expect(choices.map((c) => c.value)).toEqual(['hypothesis']);
    modal.choose(choices[0]);
    await settle(view);
    expect(world.engine.services.notes.note(EXAMPLE_PATHS.poolSize)!.cached.meta.note_type).toBe('hypothesis');
    expect(world.vault.text(EXAMPLE_PATHS.poolSize)).toMatch(/^note_type: hypothesis$/m);
    const [last] = await world.engine.services.governance.audit.recent({ limit: 1 });
    expect(last).toMatchObject({ action: 'note.write', actor: { kind: 'human', id: null }, data: { field: 'note_type', before: 'agent_finding', after: 'hypothesis' } });
    expect(view.contentEl.querySelector('.lithos-note-type')?.textContent).toBe('hypothesis');
  });

  test('add edge: pick the target note, then the type; the edge is created as the person and shown', async () => {
    const view = await openOn(EXAMPLE_PATHS.retryV2);
    await click(Array.from(view.contentEl.querySelectorAll('.lithos-actions button')).find((b) => b.textContent === 'Add edge…')!);
    const pickNote = obsidianRecord.modals.at(-1) as SuggestModal<{ path: string }>;
    const notes = await pickNote.type('retry storm');
    expect(notes.map((n) => n.path)).toEqual([EXAMPLE_PATHS.retryStorm]);
    pickNote.choose(notes[0]);
    await settle();
    const pickType = obsidianRecord.modals.at(-1) as SuggestModal<{ value: string }>;
    const types = await pickType.type('');
    expect(types.map((t) => t.value)).not.toContain('contradicts');
    pickType.choose(types.find((t) => t.value === 'depends_on')!);
    await settle(view);
    const from = world.engine.services.notes.note(EXAMPLE_PATHS.retryV2)!.nodeId;
    expect(world.engine.services.learning.memory.edges.find({ from, type: 'depends_on' })).toEqual([expect.objectContaining({ provenance_type: 'human', provenance_actor: 'human' })]);
    expect(texts(view.contentEl, '.lithos-edges-out .lithos-row')).toContain('depends_onINC-137: Retry storm after broker failover0.50you');
  });

  test('mark misleading: feedback on the newest retrieval that returned the note and still takes feedback', async () => {
    const top = world.activity.humanRetrieval.nodes[0];
    const view = await openOn(top.path);
    const button = view.contentEl.querySelector('[data-action="mark-misleading"]') as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    await click(button, view);
    expect(world.engine.services.learning.memory.stats.get(top.id).misleading_count).toBe(1);
    expect(obsidianRecord.notices.at(-1)).toBe(`Lithos: marked misleading (receipt ${world.activity.humanRetrieval.receipt_id}).`);
    // That retrieval has had its feedback now; no other one is waiting, so there is nothing left to mark.
    const again = view.contentEl.querySelector('[data-action="mark-misleading"]') as HTMLButtonElement;
    expect(again.disabled).toBe(world.activity.reviewerRetrieval.nodes.every((n) => n.id !== top.id));
  });

  test('without an engine it says why, and renders once the engine is ready', async () => {
    const bare = mountPanels(null);
    bare.app.workspace.openFile(EXAMPLE_PATHS.poolSize);
    const view = await bare.open<NoteMemoryView>(PANEL_TYPES.noteMemory);
    expect(view.contentEl.textContent).toBe('Lithos is opening its memory…');
    bare.ctx.setEngine(world.engine);
    await view.rendered;
    expect(view.contentEl.querySelector('.lithos-panel-title')?.textContent).toBe('Ingest p95 regression caused by pool size');
    await bare.app.workspace.getLeavesOfType(PANEL_TYPES.noteMemory)[0].detach();
    expect(bare.ctx.listeners()).toBe(0);
    expect(bare.app.workspace.listenerCount('file-open')).toBe(0);
  });
});
