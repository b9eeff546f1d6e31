/**
 * What other Obsidian plugins may use (docs/events.md): `app.plugins.plugins['lithos-memory'].api`.
 * The event stream outlives engine restarts: subscribers attach once, and each time the memory opens its
 * events are relayed to them, and to the workspace event `lithos-memory:event` for plugins that prefer
 * `app.workspace.on`.
 */
import { EventBus, PUBLIC_EVENT_TYPES, type LithosEvent } from '../shared/governance/public-events';

export const WORKSPACE_EVENT = 'lithos-memory:event';

export class LithosPublicApi {
  /** Bumped when a field is removed or changes meaning; additions keep it. */
  readonly version = 1;
  readonly eventTypes = PUBLIC_EVENT_TYPES;
  /** `api.events.on(type | '*', listener)` returns the function that unsubscribes. */
  readonly events: Pick<EventBus, 'on'>;
  private readonly bus: EventBus;
  private detach: (() => void) | null = null;

  constructor(
    private readonly trigger: (name: string, event: LithosEvent) => void,
    onListenerError: (err: unknown) => void,
  ) {
    this.bus = new EventBus(onListenerError);
    this.events = { on: (type, listener) => this.bus.on(type, listener) };
  }

  /** Relays the open engine's events (replacing an earlier engine's). */
  attach(engineEvents: Pick<EventBus, 'on'>): void {
    this.detach?.();
    this.detach = engineEvents.on('*', (event) => {
      this.bus.emit(event);
      this.trigger(WORKSPACE_EVENT, event);
    });
  }

  /** The plugin unloads: nothing more is relayed. */
  stop(): void {
    this.detach?.();
    this.detach = null;
  }
}
