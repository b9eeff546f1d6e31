/**
 * The PanelContext a host without Obsidian gives the panels (view specs, preview page): a fixed engine,
 * settings, and change notifications the caller fires by hand.
 */
import type { MemoryEngine } from '../../shared/engine';
import type { PanelChange, PanelContext, PanelSettings } from '../../plugin/panels/context';

export interface TestPanelContext extends PanelContext {
  emit(what: PanelChange): void;
  setEngine(engine: MemoryEngine | null, error?: string | null): void;
  listeners(): number;
}

export function panelContext(engine: MemoryEngine | null, settings: PanelSettings = {}): TestPanelContext {
  let current = engine;
  let error: string | null = null;
  const subs = new Set<(what: PanelChange) => void>();
  return {
    engine: () => current,
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
      error = err;
      for (const cb of [...subs]) cb('engine');
    },
    listeners: () => subs.size,
  };
}
