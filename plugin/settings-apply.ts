import { asLithosError } from '../shared/errors';
import type { BridgeControl } from './bridge-control';
import type { LithosSettings } from './settings';
import type { EngineControls } from './engine-controls';

const HOUR_MS = 3600 * 1000;

/** One thing a settings change asks of the running plugin, in the order `settingsActions` lists them. */
export type SettingsAction =
  | { kind: 'consolidation'; intervalMs: number }
  | { kind: 'decay'; intervalMs: number }
  | { kind: 'callouts'; on: boolean }
  | { kind: 'embeddings' }
  | { kind: 'bridge'; enabled: boolean; port: number };

/**
 * What changed between two settings, as what to reschedule, rewrite or restart: a settings change takes
 * effect without reloading the plugin. Settings read at every use (retrieval defaults, read-only and
 * disabled tools, the CLI path) need nothing here.
 */
export function settingsActions(before: LithosSettings, after: LithosSettings): SettingsAction[] {
  const actions: SettingsAction[] = [];
  if (before.learning.consolidationIntervalHours !== after.learning.consolidationIntervalHours) {
    actions.push({ kind: 'consolidation', intervalMs: after.learning.consolidationIntervalHours * HOUR_MS });
  }
  if (before.learning.decayIntervalHours !== after.learning.decayIntervalHours) actions.push({ kind: 'decay', intervalMs: after.learning.decayIntervalHours * HOUR_MS });
  if (before.callouts !== after.callouts) actions.push({ kind: 'callouts', on: after.callouts });
  if (before.embeddings.model !== after.embeddings.model || before.embeddings.modelFolder !== after.embeddings.modelFolder) actions.push({ kind: 'embeddings' });
  if (before.bridge.enabled !== after.bridge.enabled || before.bridge.port !== after.bridge.port) {
    actions.push({ kind: 'bridge', enabled: after.bridge.enabled, port: after.bridge.port });
  }
  return actions;
}

/** What the actions act on; the engine is null while it opens (its schedules are set when it does). */
export interface SettingsTargets {
  engine: Pick<EngineControls, 'consolidator' | 'setDecayInterval' | 'conflicts'> | null;
  safeMode: boolean;
  bridge: Pick<BridgeControl, 'apply'> | null;
  applyEmbeddings(): Promise<void>;
  notify(message: string): void;
}

/** Carries out `actions` one after another; a bridge that fails to (re)start is said in a notice. */
export async function applySettingsActions(actions: readonly SettingsAction[], t: SettingsTargets): Promise<void> {
  for (const a of actions) {
    if (a.kind === 'embeddings') await t.applyEmbeddings();
    else if (!t.engine) continue;
    else if (a.kind === 'consolidation') t.engine.consolidator.reschedule(a.intervalMs);
    else if (a.kind === 'decay') t.engine.setDecayInterval(a.intervalMs);
    else if (a.kind === 'callouts') await t.engine.conflicts.setCallouts(a.on);
    // Without an engine (or in safe mode) the bridge waits: it starts when the engine opens.
    else if (!t.safeMode) await t.bridge?.apply(a.enabled, a.port).catch((err: unknown) => t.notify(asLithosError(err).message));
  }
}

/** The settings a newly opened engine starts with: its schedules, and the bridge if it is on. */
export function applyOpeningSettings(engine: Pick<EngineControls, 'consolidator' | 'setDecayInterval'>, s: LithosSettings, bridge: Pick<BridgeControl, 'apply'> | null, desktop: boolean): void {
  engine.consolidator.start(s.learning.consolidationIntervalHours * HOUR_MS);
  engine.setDecayInterval(s.learning.decayIntervalHours * HOUR_MS);
  if (s.bridge.enabled && desktop) void bridge?.apply(true, s.bridge.port).catch(() => undefined);
}
