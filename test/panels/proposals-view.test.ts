/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
jest.mock('obsidian', () => jest.requireActual('../plugin/fake-obsidian-dom'), { virtual: true });

import { click, jsdomSql, mountPanels, texts, type Mounted } from './mount';
import { openExampleWorld, type ExampleWorld } from './example-world';
import { EXAMPLE_PATHS } from '../preview/example-activity';
import { PANEL_TYPES } from '../../plugin/panels/panel-types';
import type { ProposalsView } from '../../plugin/panels/proposals-view';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { obsidianRecord } from '../plugin/fake-obsidian-dom';

let world: ExampleWorld;
let m: Mounted;
const JITTER = 'shared/concepts/Jitter.md';

beforeEach(async () => {
  world = await openExampleWorld({ sql: await jsdomSql() });
  m = mountPanels(world);
});

afterEach(async () => {
  await world.engine.close();
  document.body.innerHTML = '';
});

/** scout-7 edits Ana's note on connection pooling and deletes Ana's note on jitter: both wait for the person. */
async function propose(): Promise<void> {
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: world.engine, deleteTo: 'trash_folder' }));
  const scout = { kind: 'agent' as const, agent_id: 'scout-7' };
  const version = async (path: string): Promise<string> => ((await tools.call('lithos_read', { path }, scout)) as { version: string }).version;
  await tools.call('lithos_write', { path: EXAMPLE_PATHS.pooling, content: 'Pool connections; size the pool for the burst load.\n', expected_version: await version(EXAMPLE_PATHS.pooling) }, scout);
  world.clock.advance(60_000); // oldest first: the edit, then the delete
  await tools.call('lithos_delete', { path: JITTER, expected_version: await version(JITTER) }, scout);
}

const cards = (view: ProposalsView): HTMLElement[] => Array.from(view.contentEl.querySelectorAll<HTMLElement>('.lithos-proposal'));

describe('proposals panel', () => {
  test('with none waiting it says so', async () => {
    const view = await m.open<ProposalsView>(PANEL_TYPES.proposals);
    expect(texts(view.contentEl, '.lithos-panel-title')).toEqual(['Waiting for you (0)']);
    expect(texts(view.contentEl, '.lithos-empty')).toEqual(['No agent is waiting for your answer.']);
  });

  test("lists an agent's edit and delete of the person's notes, with who, why and what it would write", async () => {
    await propose();
    const view = await m.open<ProposalsView>(PANEL_TYPES.proposals);
    expect(texts(view.contentEl, '.lithos-panel-title')).toEqual(['Waiting for you (2)']);
    const [edit, del] = cards(view);
    expect(texts(edit, '.lithos-proposal-title')).toEqual(['editConnection pooling']);
    expect(texts(edit, '.lithos-proposal-why')).toEqual(['Your note: agents change it only with your yes.']);
    expect(texts(edit, '.lithos-proposal-who')[0]).toMatch(/^scout-7 · .* · shared\/concepts\/Connection pooling\.md$/);
    expect(texts(edit, '.lithos-proposal-content')).toEqual(['Pool connections; size the pool for the burst load.']);
    expect(texts(del, '.lithos-proposal-title')).toEqual(['deleteJitter']);
    expect(texts(del, '[data-decision]')).toEqual(['Accept: delete', 'Reject']);
  });

  test('accept applies the edit as the agent, author unchanged; reject leaves the note; the list empties', async () => {
    await propose();
    const view = await m.open<ProposalsView>(PANEL_TYPES.proposals);
    const [edit, del] = cards(view);
    await click(edit.querySelector('[data-decision="accept"]'), view);
    const pooling = world.vault.text(EXAMPLE_PATHS.pooling)!;
    expect(pooling).toContain('size the pool for the burst load');
    expect(pooling).toMatch(/^author: ana$/m);
    const fm = (await world.engine.services.notes.parse(EXAMPLE_PATHS.pooling)).frontmatter;
    expect(fm.contributors).toEqual(['ana', 'maya', 'scout-7']);
    expect(texts(view.contentEl, '.lithos-panel-title')).toEqual(['Waiting for you (1)']);
    await click(del.querySelector('[data-decision="reject"]'), view);
    expect(world.vault.text(JITTER)).toBeDefined();
    expect(texts(view.contentEl, '.lithos-empty')).toEqual(['No agent is waiting for your answer.']);
    expect(obsidianRecord.notices).toEqual([]);
  });

  test('a proposal overtaken by an edit cannot be accepted: the person is told, and it stays', async () => {
    await propose();
    const view = await m.open<ProposalsView>(PANEL_TYPES.proposals);
    world.vault.put(EXAMPLE_PATHS.pooling, `${world.vault.text(EXAMPLE_PATHS.pooling)!}\nAna added a line.\n`, false);
    await click(cards(view)[0].querySelector('[data-decision="accept"]'), view);
    expect(obsidianRecord.notices).toEqual([expect.stringMatching(/^Lithos: Proposal .* has changed since \(someone edited, created or moved it\)\. It stays pending/)]);
    expect(world.vault.text(EXAMPLE_PATHS.pooling)).toContain('Ana added a line.');
    expect(cards(view)).toHaveLength(2);
  });
});
