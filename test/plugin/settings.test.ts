import { DEFAULT_SETTINGS, defaultSettings, migrateData, migrateSettings } from '../../plugin/settings';

/** data.json in any state becomes complete, valid settings: a bad hand edit never stops the plugin loading. */
describe('plugin settings', () => {
  test('nothing saved yet: the defaults, and no crash marker', () => {
    expect(migrateData(null)).toEqual({ version: 1, settings: defaultSettings(), indexingSince: null, legacyAgentTools: null });
    expect(DEFAULT_SETTINGS.bridge).toEqual({ enabled: true, port: 27183, cliPath: '' });
    expect(DEFAULT_SETTINGS.retrieval).toEqual({ maxNodes: 10, defaultIntent: null, defaultClass: null });
    expect(DEFAULT_SETTINGS.learning).toEqual({ consolidationIntervalHours: 6, decayIntervalHours: 6 });
    expect(DEFAULT_SETTINGS.embeddings).toEqual({ model: 'hashing', modelFolder: '.lithos/models' });
  });

  test('valid fields are kept; invalid ones fall back to their default one by one; unknown ones are dropped', () => {
    const s = migrateSettings({
      bridge: { enabled: false, port: 70000, readOnly: true, disabledTools: [' lithos_write ', 'lithos_write', '', 3], cliPath: ' /opt/cli.js ' },
      retrieval: { maxNodes: 51, defaultIntent: 'explore', defaultClass: 'gossip' },
      learning: { consolidationIntervalHours: 1.5, decayIntervalHours: -2 },
      callouts: 'no',
      embeddings: { model: 'minilm', modelFolder: '../outside' },
      extras: { x: 1 },
    });
    expect(s).toEqual({
      bridge: { enabled: false, port: 27183, cliPath: '/opt/cli.js' },
      embeddings: { model: 'hashing', modelFolder: '.lithos/models' },
      retrieval: { maxNodes: 10, defaultIntent: 'explore', defaultClass: null },
      learning: { consolidationIntervalHours: 1.5, decayIntervalHours: 6 },
      callouts: true,
    });
  });

  test('embeddings: the model choice and a vault-relative model folder are kept; a folder outside the vault is not', () => {
    expect(migrateSettings({ embeddings: { model: 'minilm-l6-v2', modelFolder: ' /Models/ml/ ' } }).embeddings).toEqual({ model: 'minilm-l6-v2', modelFolder: 'Models/ml' });
    expect(migrateSettings({ embeddings: { model: 'minilm-l6-v2', modelFolder: 'Models\\ml' } }).embeddings.modelFolder).toBe('Models/ml');
    for (const bad of ['C:\\models', 'a/../../b', '', 7]) {
      expect(migrateSettings({ embeddings: { modelFolder: bad } }).embeddings.modelFolder).toBe('.lithos/models');
    }
  });

  test('defaultSettings() is a fresh copy each time (editing it never touches the defaults)', () => {
    const a = defaultSettings();
    a.bridge.cliPath = 'x';
    a.retrieval.maxNodes = 3;
    expect(defaultSettings().bridge.cliPath).toBe('');
    expect(defaultSettings().retrieval.maxNodes).toBe(10);
  });

  test("read-only and switched-off tools saved by an older version are kept to be moved to the vault policy, until they are", () => {
    const old = { settings: { bridge: { readOnly: true, disabledTools: [' lithos_write ', 'lithos_write', '', 3] } } };
    expect(migrateData(old).legacyAgentTools).toEqual({ read_only: true, disabled: ['lithos_write'] });
    expect(migrateData({ settings: { bridge: { readOnly: false, disabledTools: [] } } }).legacyAgentTools).toBeNull();
    // Saved again before the move (the memory never opened): still there at the next start.
    expect(migrateData(JSON.parse(JSON.stringify(migrateData(old)))).legacyAgentTools).toEqual({ read_only: true, disabled: ['lithos_write'] });
    expect(migrateData({ legacyAgentTools: null }).legacyAgentTools).toBeNull();
  });

  test('a crash marker survives migration; anything else in its place reads as none', () => {
    expect(migrateData({ indexingSince: '2026-01-01T00:00:00.000Z' }).indexingSince).toBe('2026-01-01T00:00:00.000Z');
    expect(migrateData({ indexingSince: 5 }).indexingSince).toBeNull();
  });
});
