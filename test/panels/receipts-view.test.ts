/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
jest.mock('obsidian', () => jest.requireActual('../plugin/fake-obsidian-dom'), { virtual: true });

import { click, jsdomSql, mountPanels, settle, texts, type Mounted } from './mount';
import { openExampleWorld, type ExampleWorld } from './example-world';
import { EXAMPLE_PATHS } from '../preview/example-activity';
import { PANEL_TYPES } from '../../plugin/panels/panel-types';
import type { ReceiptsView } from '../../plugin/panels/receipts-view';

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

const ids = (root: HTMLElement): string[] => Array.from(root.querySelectorAll('.lithos-receipt')).map((e) => e.getAttribute('data-receipt-id')!);

describe('receipts panel', () => {
  test('recent retrievals by agents and the person, newest first, with who, query and size', async () => {
    const view = await m.open<ReceiptsView>(PANEL_TYPES.receipts);
    const a = world.activity;
    expect(ids(view.contentEl)).toEqual([a.humanRetrieval.receipt_id, a.reviewerRetrieval.receipt_id, a.scoutRetrieval.receipt_id]);
    const heads = texts(view.contentEl, '.lithos-receipt-head');
    expect(heads[0]).toMatch(new RegExp(`^youwhy did ingest latency regress in March\\d+ min ago · ${a.humanRetrieval.nodes.length} notes · t `));
    expect(heads[2]).toMatch(/^scout-7ingest p95 latency regression root cause/);
  });

  test('filters by agent, task and note', async () => {
    const view = await m.open<ReceiptsView>(PANEL_TYPES.receipts);
    const a = world.activity;
    const select = (key: string): HTMLSelectElement => view.contentEl.querySelector(`select[data-filter="${key}"]`)!;
    expect(texts(select('agent'), 'option')).toEqual(['any agent', 'you', 'reviewer', 'scout-7']);
    select('agent').value = 'reviewer';
    select('agent').dispatchEvent(new Event('change'));
    await settle(view);
    expect(ids(view.contentEl)).toEqual([a.reviewerRetrieval.receipt_id]);

    await view.setFilter({ task: a.ingestTask });
    expect(ids(view.contentEl)).toEqual([a.scoutRetrieval.receipt_id]);

    const poolSizeReturnedBy = [a.humanRetrieval, a.reviewerRetrieval, a.scoutRetrieval].filter((r) => r.nodes.some((n) => n.path === EXAMPLE_PATHS.poolSize)).map((r) => r.receipt_id);
    await view.setFilter({ node: EXAMPLE_PATHS.poolSize });
    expect(ids(view.contentEl)).toEqual(poolSizeReturnedBy);
  });

  test('opening a receipt shows its details: class, task, temperature, terrace and the ranked notes', async () => {
    const view = await m.open<ReceiptsView>(PANEL_TYPES.receipts);
    const r = world.activity.scoutRetrieval;
    await click(view.contentEl.querySelector(`[data-receipt-id="${r.receipt_id}"] .lithos-receipt-head`), view);
    const details = view.contentEl.querySelector(`[data-receipt-id="${r.receipt_id}"] .lithos-receipt-details`)!;
    expect(details.textContent).toContain(`Class debug · task ${world.activity.ingestTask}`);
    expect(details.textContent).toContain(`terrace ${r.terrace_reached}`);
    expect(texts(details, '.lithos-note-link')).toEqual(r.nodes.map((n) => n.title));
    expect(view.contentEl.querySelectorAll('.lithos-receipt-details')).toHaveLength(1);
  });
});
