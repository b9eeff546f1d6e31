/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
jest.mock('obsidian', () => jest.requireActual('../plugin/fake-obsidian-dom'), { virtual: true });

import { jsdomSql, mountPanels, texts, type Mounted } from './mount';
import { openExampleWorld, type ExampleWorld } from './example-world';
import { PANEL_TYPES } from '../../plugin/panels/panel-types';
import type { AgentsView } from '../../plugin/panels/agents-view';
import type { Component } from '../plugin/fake-obsidian-dom';

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

describe('agents & tasks panel', () => {
  test('agents, tasks with their live claims and TTL left, findings linked to notes', async () => {
    const view = await m.open<AgentsView>(PANEL_TYPES.agents);
    const root = view.contentEl;
    expect(texts(root, '.lithos-agent-name')).toEqual(['Reviewer (reviewer)', 'Scout 7 (scout-7)']);
    expect(texts(root, '.lithos-task-title')).toEqual(['Review the Atlas retry policy', 'Find the root cause of the ingest p95 regression']);
    const ingest = root.querySelector(`[data-task-id="${world.activity.ingestTask}"]`)!;
    // Claimed 45 and 20 minutes before 4+3+6+5+2 = 20 minutes passed: 25:00 and expired.
    expect(texts(ingest, '.lithos-claim')).toEqual(['root causescout-725:00']);
    expect(texts(ingest, '.lithos-findings li')).toEqual([
      'scout-7: A pool of 20 connections saturates under the burst load; p95 follows the queue wait. → Ingest p95 regression caused by pool size',
      'reviewer: The composite index on events was dropped in the same deploy. → Ingest p95 regression caused by missing index',
    ]);
  });

  test('the countdown ticks from the engine clock and says when a claim lapses; the interval stops on close', async () => {
    const view = await m.open<AgentsView>(PANEL_TYPES.agents);
    expect(view.ticking).toBe(true);
    expect((view as unknown as Component).intervals).toHaveLength(1);
    const ttl = (): string => view.contentEl.querySelector(`[data-task-id="${world.activity.ingestTask}"] .lithos-ttl`)!.textContent;
    world.clock.advance(90_000);
    view.tick();
    expect(ttl()).toBe('23:30');
    world.clock.advance(24 * 60_000);
    view.tick();
    expect(ttl()).toBe('expired');
    await m.app.workspace.getLeavesOfType(PANEL_TYPES.agents)[0].detach();
    expect(view.ticking).toBe(false);
  });
});
