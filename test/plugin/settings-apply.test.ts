import { defaultSettings, type LithosSettings } from '../../plugin/settings';
import { settingsActions, type SettingsAction } from '../../plugin/settings-apply';

const HOUR_MS = 3600 * 1000;

/** Default settings with one change applied. */
function changed(fn: (s: LithosSettings) => void): LithosSettings {
  const s = defaultSettings();
  fn(s);
  return s;
}

/** A settings change takes effect at once: each changed field names what to reschedule, rewrite or restart. */
describe('settingsActions: what a settings change asks of the running plugin', () => {
  const cases: [string, (s: LithosSettings) => void, SettingsAction[]][] = [
    ['nothing changed', () => undefined, []],
    ['consolidation interval', (s) => void (s.learning.consolidationIntervalHours = 2), [{ kind: 'consolidation', intervalMs: 2 * HOUR_MS }]],
    ['decay interval', (s) => void (s.learning.decayIntervalHours = 0.5), [{ kind: 'decay', intervalMs: 0.5 * HOUR_MS }]],
    ['callouts off', (s) => void (s.callouts = false), [{ kind: 'callouts', on: false }]],
    ['embedding model', (s) => void (s.embeddings.model = 'minilm-l6-v2'), [{ kind: 'embeddings' }]],
    ['model folder', (s) => void (s.embeddings.modelFolder = 'models'), [{ kind: 'embeddings' }]],
    ['bridge off', (s) => void (s.bridge.enabled = false), [{ kind: 'bridge', enabled: false, port: 27183 }]],
    ['bridge port', (s) => void (s.bridge.port = 28000), [{ kind: 'bridge', enabled: true, port: 28000 }]],
    // Read at every use: nothing to apply.
    ['retrieval defaults', (s) => void (s.retrieval = { maxNodes: 20, defaultIntent: 'explore', defaultClass: null }), []],
    ['CLI path', (s) => void (s.bridge.cliPath = '/opt/lithos/cli.js'), []],
  ];

  test.each(cases)('%s', (_name, change, expected) => {
    expect(settingsActions(defaultSettings(), changed(change))).toEqual(expected);
  });

  test('several changes at once: schedules and callouts first, then embeddings, the bridge last', () => {
    const after = changed((s) => {
      s.bridge.port = 28001;
      s.embeddings.model = 'minilm-l6-v2';
      s.callouts = false;
      s.learning.decayIntervalHours = 12;
      s.learning.consolidationIntervalHours = 1;
    });
    expect(settingsActions(defaultSettings(), after).map((a) => a.kind)).toEqual(['consolidation', 'decay', 'callouts', 'embeddings', 'bridge']);
  });
});
