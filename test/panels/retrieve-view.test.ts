/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
jest.mock('obsidian', () => jest.requireActual('../plugin/fake-obsidian-dom'), { virtual: true });

import { click, jsdomSql, mountPanels, settle, texts, type Mounted } from './mount';
import { openExampleWorld, type ExampleWorld } from './example-world';
import { PANEL_TYPES } from '../../plugin/panels/panel-types';
import { scoreContributions, terrace2Line, type RetrieveView } from '../../plugin/panels/retrieve-view';
import { feedbackMark } from '../../shared/learning/feedback';
import { EXAMPLE_PATHS } from '../preview/example-activity';

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

async function submit(view: RetrieveView, query: string, cls: string, intent: string): Promise<void> {
  const root = view.contentEl;
  (root.querySelector('.lithos-query-input') as HTMLInputElement).value = query;
  (root.querySelector('.lithos-class-picker') as HTMLSelectElement).value = cls;
  (root.querySelector('.lithos-intent-picker') as HTMLSelectElement).value = intent;
  root.querySelector('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await settle(view);
}

describe('the interpretive pass in words', () => {
  test.each([
    [{ wanted: false, why: 'temperature 0.02, no conflicts: the fast re-rank suffices', outcome: 'not wanted' }, 'Interpretive pass not needed: temperature 0.02, no conflicts: the fast re-rank suffices.'],
    [{ wanted: true, why: '1 conflict among the results', outcome: 'skipped: no interpreter configured (MCP sampling unavailable or not wired)' }, "Interpretive pass wanted (1 conflict among the results); it needs an LLM, which an agent's MCP client lends through sampling, so here the fast re-rank stands."],
    [{ wanted: true, why: 'temperature 0.71 > 0.6', outcome: 'skipped: interpreter failed (model offline)' }, 'Interpretive pass (temperature 0.71 > 0.6): skipped: interpreter failed (model offline).'],
  ])('%o', (t, line) => expect(terrace2Line(t)).toBe(line));
});

describe('retrieve panel', () => {
  test('query, class and intent pickers → ranked results with scouts, reasons and score terms, temperature and terrace', async () => {
    const view = await m.open<RetrieveView>(PANEL_TYPES.retrieve);
    expect(texts(view.contentEl, '.lithos-class-picker option')).toEqual(['debug', 'design', 'planning', 'write', 'decision', 'synthesis', 'lookup']);
    await submit(view, 'retry storm after broker failover', 'decision', 'fact_check');
    const r = view.result!;
    expect(r.query_class).toBe('decision');
    expect(r.intent).toBe('fact_check');
    const root = view.contentEl;
    expect(texts(root, '.lithos-retrieve-meta .lithos-chip')).toEqual([`temperature ${r.temperature.toFixed(2)}`, `coherence ${r.coherence.toFixed(2)}`, `terrace ${r.terrace_reached}`, 'class decision · fact_check']);
    expect(root.querySelector('.lithos-terrace2')?.textContent).toBe(terrace2Line(r.terrace2));
    const items = Array.from(root.querySelectorAll('.lithos-result'));
    expect(items.map((li) => li.querySelector('.lithos-note-link')?.textContent)).toEqual(r.nodes.map((n) => n.title));
    const first = items[0];
    expect(texts(first, '.lithos-scout')).toEqual(r.nodes[0].scouts);
    expect(texts(first, '.lithos-reasons li')).toEqual(r.nodes[0].reasons.slice(0, 3));
    // The terms shown are the score's parts: relevance first, then weighted terms; they add up to the score.
    const parts = texts(first, '.lithos-term');
    expect(parts[0]).toBe(`relevance ${r.nodes[0].terms.intent.toFixed(3)}`);
    const sum = scoreContributions(r.nodes[0].terms).reduce((a, t) => a + t.value, 0);
    expect(sum).toBeCloseTo(r.nodes[0].score, 9);
    expect(parts.slice(1).every((p) => /^[a-z .]+ [+−]\d\.\d{3}$/.test(p))).toBe(true);
    expect(first.querySelector('.lithos-score')?.textContent).toBe(r.nodes[0].score.toFixed(3));
    // The person's retrieval wrote a receipt like an agent's.
    const receipts = await world.engine.services.retrieval.receipts.query({ receipt_id: r.receipt_id!, limit: 1 });
    expect(receipts.receipts[0]).toMatchObject({ agent_id: 'human', query_text: 'retry storm after broker failover' });
    await click(first.querySelector('.lithos-note-link'));
    expect(m.app.workspace.opened).toEqual([r.nodes[0].path]);
  });

  test('cite and misleading marks are sent as one feedback for the receipt: stats change and the receipt takes no more', async () => {
    const view = await m.open<RetrieveView>(PANEL_TYPES.retrieve);
    await view.runQuery('ingest p95 latency regression', { queryClass: 'debug' });
    const [a, b] = view.result!.nodes;
    const before = { a: world.engine.services.learning.memory.stats.get(a.id), b: world.engine.services.learning.memory.stats.get(b.id) };
    await click(view.contentEl.querySelector(`[data-id="${a.id}"] [data-mark="cited"]`), view);
    await click(view.contentEl.querySelector(`[data-id="${b.id}"] [data-mark="misleading"]`), view);
    expect(view.contentEl.querySelector(`[data-id="${a.id}"]`)?.classList.contains('is-cited')).toBe(true);
    await click(view.contentEl.querySelector('[data-action="send-feedback"]'), view);
    expect(world.engine.services.learning.memory.stats.get(a.id).use_count).toBe(before.a.use_count + 1);
    expect(world.engine.services.learning.memory.stats.get(b.id).misleading_count).toBe(before.b.misleading_count + 1);
    expect(world.engine.services.learning.memory.learned.mark(feedbackMark(view.result!.receipt_id!))).not.toBeNull();
    const n = view.result!.nodes.length;
    expect(view.contentEl.querySelector('.lithos-feedback-result')?.textContent).toBe(`Feedback sent: 1 used, ${n - 2} ignored, 1 misleading.`);
    expect(view.contentEl.querySelector('[data-mark]')).toBeNull();
  });

  test('try mode (the toggle) teaches nothing: no receipt, no marks to send, no stat moves; it stays on for the next query', async () => {
    const view = await m.open<RetrieveView>(PANEL_TYPES.retrieve);
    const mem = world.engine.services.learning.memory;
    const all = world.engine.services.notes.notes().map((n) => n.nodeId);
    const before = all.map((id) => mem.stats.get(id));
    const receipts = (await world.engine.services.retrieval.receipts.query()).receipts.length;
    const toggle = view.contentEl.querySelector('.lithos-try-input') as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    toggle.checked = true;
    await submit(view, 'ingest p95 latency regression', 'debug', '');
    expect(view.result).toMatchObject({ try: true, receipt_id: null });
    expect(view.result!.nodes.length).toBeGreaterThan(0);
    expect(view.contentEl.querySelector('[data-mark]')).toBeNull();
    expect(view.contentEl.querySelector('[data-action="send-feedback"]')).toBeNull();
    expect(view.contentEl.querySelector('.lithos-try-note')?.textContent).toBe('A try: no receipt was written and memory learned nothing from it.');
    view.toggleMark(view.result!.nodes[0].id, 'cited');
    expect(await view.sendFeedback()).toBeNull();
    await view.runQuery('cache stampede after deploy');
    expect(view.result).toMatchObject({ try: true, receipt_id: null });
    expect((view.contentEl.querySelector('.lithos-try-input') as HTMLInputElement).checked).toBe(true);
    expect(all.map((id) => mem.stats.get(id))).toEqual(before);
    expect((await world.engine.services.retrieval.receipts.query()).receipts).toHaveLength(receipts);
  });

  test('the retrieve-for-selection command retrieves for the selected text in the panel', async () => {
    const cmd = m.plugin.command('retrieve-for-selection');
    const editor = { getSelection: () => 'cache stampede after deploy', getValue: () => '' };
    cmd.editorCallback!(editor as never, { file: { basename: 'Whatever' } } as never);
    await settle();
    const view = m.app.workspace.getLeavesOfType(PANEL_TYPES.retrieve)[0].view as unknown as RetrieveView;
    await settle(view);
    expect(view.result?.nodes[0].path).toBe(EXAMPLE_PATHS.stampede);
    expect((view.contentEl.querySelector('.lithos-query-input') as HTMLInputElement).value).toBe('cache stampede after deploy');
  });
});
