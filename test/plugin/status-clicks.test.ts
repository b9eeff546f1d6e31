import { PANEL_TYPES } from '../../plugin/panels/panel-types';
import { bridgeStatusClick, indexStatusClick, type ClickOutcome } from '../../plugin/status-clicks';
import type { BridgeState } from '../../plugin/bridge-control';
import type { LithosStatus } from '../../plugin/status-bar';

/** A click on a status bar item explains a problem in a notice, or opens the panel that shows more. */
describe('status bar clicks', () => {
  const index: [LithosStatus, ClickOutcome][] = [
    [{ state: 'safe' }, { notify: expect.stringContaining('Run "Leave safe mode"') as unknown as string }],
    [{ state: 'error', message: 'the index is damaged' }, { notify: 'the index is damaged' }],
    [{ state: 'waiting', holder: 'lithos mcp (pid 42)' }, { notify: 'Lithos waits for lithos mcp (pid 42) to finish with this vault.' }],
    [{ state: 'starting' }, { reveal: PANEL_TYPES.retrieve }],
    [{ state: 'progress', phase: 'index', done: 3, total: 9 }, { reveal: PANEL_TYPES.retrieve }],
    [{ state: 'ready', notes: 12 }, { reveal: PANEL_TYPES.retrieve }],
    [{ state: 'stale', notes: 2 }, { reveal: PANEL_TYPES.retrieve }],
  ];
  test.each(index)('index item, %j', (status, outcome) => {
    expect(indexStatusClick(status)).toEqual(outcome);
  });

  const bridge: [BridgeState | undefined, ClickOutcome][] = [
    [{ kind: 'listening', port: 27183, agents: [] }, { reveal: PANEL_TYPES.agents }],
    [{ kind: 'error', message: 'port 27183 is taken' }, { notify: 'port 27183 is taken' }],
    [{ kind: 'unsupported', reason: 'The bridge needs Obsidian desktop' }, { notify: 'The bridge needs Obsidian desktop' }],
    [{ kind: 'off' }, { notify: expect.stringContaining('run "Start the agents bridge"') as unknown as string }],
    [{ kind: 'starting' }, { notify: expect.stringContaining('The agents bridge is off') as unknown as string }],
    // Before the bridge control exists (early in onload).
    [undefined, { notify: expect.stringContaining('The agents bridge is off') as unknown as string }],
  ];
  test.each(bridge)('bridge item, %j', (state, outcome) => {
    expect(bridgeStatusClick(state)).toEqual(outcome);
  });
});
