import { asLithosError } from '../shared/errors';
import type { Logger } from '../shared/ports';
import type { MemorySession } from '../shared/session/memory-session';
import type { PanelChange, PanelContext, PanelSettings } from './panels';
import type { HumanTools } from './panels/human-tools';
import type { LithosSettings } from './settings';

/** The open panels' subscriptions: one that throws is logged and never stops the others hearing of a change. */
export class PanelChanges {
  private readonly listeners = new Set<(what: PanelChange) => void>();

  constructor(private readonly logger: Logger) {}

  subscribe(cb: (what: PanelChange) => void): () => void {
    this.listeners.add(cb);
    return () => void this.listeners.delete(cb);
  }

  emit(what: PanelChange): void {
    // A copy: a panel may unsubscribe (close) while it hears of the change.
    for (const cb of [...this.listeners]) {
      try {
        cb(what);
      } catch (err) {
        this.logger.error('a panel failed to follow a change', { error: asLithosError(err).toJSON() });
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}

/** The settings fields the panels read, in the engine's own (snake_case) terms. */
export function panelSettings(s: LithosSettings): PanelSettings {
  const r = s.retrieval;
  return { retrieval: { max_nodes: r.maxNodes, default_query_class: r.defaultClass ?? undefined, default_intent: r.defaultIntent } };
}

export interface PanelContextDeps {
  /** The memory the plugin opened: the person's session, its clock, and why it failed to open. */
  session(): { memory: MemorySession | null; error: string | null; now(): number } | null;
  tools: HumanTools;
  settings(): LithosSettings;
  changes: PanelChanges;
  safeMode(): boolean;
}

/** How the panels reach the plugin (see PanelContext). */
export function panelContext(d: PanelContextDeps): PanelContext {
  return {
    memory: () => d.session()?.memory ?? null,
    tools: d.tools,
    now: () => d.session()?.now() ?? Date.now(),
    settings: () => panelSettings(d.settings()),
    onChange: (cb) => d.changes.subscribe(cb),
    engineError: () => (d.safeMode() ? 'Lithos is in safe mode: run "Leave safe mode" to open the memory.' : (d.session()?.error ?? null)),
  };
}
