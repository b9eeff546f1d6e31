/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
jest.mock('obsidian', () => jest.requireActual('../plugin/fake-obsidian-dom'), { virtual: true });

import { jsdomSql, mountPanels, settle } from './mount';
import { openExampleWorld, type ExampleWorld } from './example-world';
import { EXAMPLE_PATHS } from '../preview/example-activity';
import { PANEL_COMMAND_IDS } from '../../plugin/panels';
import { PANEL_TYPES } from '../../plugin/panels/panel-types';
import { obsidianRecord, type SuggestModal } from '../plugin/fake-obsidian-dom';

let world: ExampleWorld;

beforeAll(async () => {
  world = await openExampleWorld({ sql: await jsdomSql() });
});

afterAll(async () => {
  await world.engine.close();
});

describe('registerPanels', () => {
  test('registers the six views and the panel commands under stable ids', () => {
    const m = mountPanels(world);
    expect([...m.app.workspace.viewCreators.keys()]).toEqual(Object.values(PANEL_TYPES));
    expect(m.plugin.commands.map((c) => c.id)).toEqual([...PANEL_COMMAND_IDS]);
    expect(PANEL_COMMAND_IDS).toEqual([
      'open-note-memory',
      'open-retrieve',
      'open-conflicts',
      'open-receipts',
      'open-agents',
      'open-proposals',
      'retrieve-for-selection',
      'set-note-type',
      'add-typed-edge',
      'mark-contradicting',
      'resolve-conflict',
    ]);
  });

  test('each open command opens its panel once in the right sidebar and reveals it again later', async () => {
    const m = mountPanels(world);
    for (const [cmd, type] of [
      ['open-note-memory', PANEL_TYPES.noteMemory],
      ['open-retrieve', PANEL_TYPES.retrieve],
      ['open-conflicts', PANEL_TYPES.conflicts],
      ['open-receipts', PANEL_TYPES.receipts],
      ['open-agents', PANEL_TYPES.agents],
      ['open-proposals', PANEL_TYPES.proposals],
    ] as const) {
      m.plugin.command(cmd).callback!();
      await settle();
      m.plugin.command(cmd).callback!();
      await settle();
      expect(m.app.workspace.getLeavesOfType(type)).toHaveLength(1);
      expect(m.app.workspace.revealed.filter((l) => l.view?.getViewType() === type)).toHaveLength(2);
    }
    for (const leaf of [...m.app.workspace.leaves]) await leaf.detach();
    expect(m.ctx.listeners()).toBe(0);
  });

  test('note commands need an open note; mark-contradicting opens a conflict as the person', async () => {
    const m = mountPanels(world);
    m.plugin.command('set-note-type').callback!();
    expect(obsidianRecord.notices).toEqual(['Lithos: open a note first.']);

    m.app.workspace.openFile(EXAMPLE_PATHS.stampede);
    m.plugin.command('mark-contradicting').callback!();
    await settle();
    const pick = obsidianRecord.modals.at(-1) as SuggestModal<{ path: string; title: string }>;
    const [herd] = await pick.type('Thundering herd');
    pick.choose(herd);
    await settle();
    const a = world.engine.services.notes.note(EXAMPLE_PATHS.stampede)!.nodeId;
    const open = world.engine.services.conflicts.list({ node: a, visible: () => true });
    expect(open).toEqual([expect.objectContaining({ state: 'unreviewed', provenance_type: 'human', evidence: { summary: 'Marked as contradicting in Obsidian' } })]);
    expect(obsidianRecord.notices.at(-1)).toBe(`Lithos: conflict with ${herd.title} opened.`);
  });

  test('commands without an engine say why instead of failing', () => {
    const m = mountPanels(null);
    m.ctx.setEngine(null, 'Lithos could not open its memory: store_corrupt');
    m.plugin.command('resolve-conflict').callback!();
    expect(obsidianRecord.notices).toEqual(['Lithos could not open its memory: store_corrupt']);
  });
});
