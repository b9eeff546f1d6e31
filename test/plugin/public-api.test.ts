import { EventBus, type LithosEvent } from '../../shared/governance/public-events';
import { LithosPublicApi, WORKSPACE_EVENT } from '../../plugin/public-api';

/** The plugin's API for other plugins: subscriptions outlive engine restarts, and each event is also a workspace event. */

const event = (seq: number): LithosEvent => ({ type: 'note.written', seq, at: '2026-01-01T00:00:00.000Z', actor: { kind: 'human', id: null }, target: 'n', data: { path: 'A.md' } });

test('a subscriber attached before the memory opens gets its events, across a restart, and none after unload', () => {
  const triggered: [string, number][] = [];
  const api = new LithosPublicApi((name, e) => triggered.push([name, e.seq]), () => undefined);
  const got: number[] = [];
  api.events.on('note.written', (e) => got.push(e.seq));

  const first = new EventBus();
  api.attach(first);
  first.emit(event(1));
  const second = new EventBus(); // the memory closed and opened again
  api.attach(second);
  first.emit(event(2)); // the old engine's stream is no longer relayed
  second.emit(event(3));
  api.stop();
  second.emit(event(4));

  expect(got).toEqual([1, 3]);
  expect(triggered).toEqual([[WORKSPACE_EVENT, 1], [WORKSPACE_EVENT, 3]]);
  expect(api.version).toBe(1);
  expect(api.eventTypes).toContain('decision.superseded');
});
