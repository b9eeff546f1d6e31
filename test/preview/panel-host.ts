/**
 * The PanelContext a host without Obsidian gives the panels (view specs, preview page): a fixed engine,
 * opened as the person's memory session with the tools over it, settings, and change notifications the
 * caller fires by hand.
 */
import { LithosError } from '../../shared/errors';
import type { MemoryEngine } from '../../shared/engine';
import { silentLogger } from '../../shared/ports';
import { PERSON } from '../../shared/session/caller';
import { MemorySession } from '../../shared/session/memory-session';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { createDispatcher } from '../../shared/tools/dispatcher';
import type { PanelChange, PanelContext, PanelSettings } from '../../plugin/panels/context';
import { HumanTools } from '../../plugin/panels/human-tools';

export interface TestPanelContext extends PanelContext {
  emit(what: PanelChange): void;
  setEngine(engine: MemoryEngine | null, error?: string | null): void;
  listeners(): number;
}

/** The person's session over the engine's services, built at once (no key to check, no policy to read). */
function personSession(engine: MemoryEngine): MemorySession {
  const pendingEvents = (): number => Number(engine.stats().pending_events);
  return new MemorySession({ services: engine.services, logger: silentLogger, pendingEvents }, PERSON);
}

export function panelContext(engine: MemoryEngine | null, settings: PanelSettings = {}): TestPanelContext {
  let current = engine;
  // The plugin opens the session with engine.as(PERSON), which also reads a hand edit of the policy; the
  // person's session judges nothing by the policy, so building it at once is the same session.
  let memory = engine ? personSession(engine) : null;
  let error: string | null = null;
  const subs = new Set<(what: PanelChange) => void>();
  const tools = new HumanTools(
    createDispatcher(TOOL_CATALOG, () => {
      if (!current) throw new LithosError('unavailable', 'No engine in this panel host.');
      return { gateway: current };
    }),
  );
  return {
    memory: () => memory,
    tools,
    now: () => current?.services.clock.now() ?? Date.now(),
    settings: () => settings,
    engineError: () => error,
    onChange(cb) {
      subs.add(cb);
      return () => subs.delete(cb);
    },
    emit(what) {
      for (const cb of [...subs]) cb(what);
    },
    setEngine(e, err = null) {
      current = e;
      memory = e ? personSession(e) : null;
      error = err;
      for (const cb of [...subs]) cb('engine');
    },
    listeners: () => subs.size,
  };
}
