import { PolicyStore, POLICY_FILE } from '../../shared/governance/policy';
import type { Logger } from '../../shared/ports';
import { moveLegacyAgentTools, withLegacyAgentTools } from '../../plugin/legacy-migration';
import { PluginDataFile } from '../../plugin/startup/plugin-data';
import type { DataStore } from '../../plugin/settings';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { FakeClock } from '../twins/fake-clock';

/** data.json as Obsidian keeps it: what was last saved. */
class MemoryDataStore implements DataStore {
  constructor(public saved: unknown) {}
  async loadData(): Promise<unknown> {
    return this.saved;
  }
  async saveData(data: unknown): Promise<void> {
    this.saved = data;
  }
}

/** Blobs whose policy file cannot be written (a full or read-only disk). */
class UnwritablePolicyBlobs extends MemoryBlobStore {
  override async writeAtomic(name: string, data: Uint8Array): Promise<void> {
    if (name.endsWith(POLICY_FILE)) throw new Error('disk full');
    return super.writeAtomic(name, data);
  }
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (m: string) => void lines.push(`${level}: ${m}`);
  return { lines, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** An older version's data.json: read-only agents, lithos_write switched off. */
const OLD_DATA = { settings: { bridge: { readOnly: true, disabledTools: ['lithos_write'] } } };

describe('moving the agents\' tool settings from data.json to the vault policy', () => {
  test('the merge never gives agents more: read-only if either says so, disabled if either disables it', async () => {
    const policy = (await PolicyStore.open({ blobs: new MemoryBlobStore(), clock: new FakeClock() })).get();
    const own = { ...policy, agent_tools: { read_only: false, disabled: ['lithos_delete', 'lithos_write'] } };
    expect(withLegacyAgentTools(own, { read_only: true, disabled: ['lithos_write', 'lithos_link'] }).agent_tools).toEqual({ read_only: true, disabled: ['lithos_delete', 'lithos_write', 'lithos_link'] });
    const readOnly = { ...policy, agent_tools: { read_only: true, disabled: [] } };
    expect(withLegacyAgentTools(readOnly, { read_only: false, disabled: [] }).agent_tools).toEqual({ read_only: true, disabled: [] });
  });

  test('moved once: the policy holds them, data.json forgets them', async () => {
    const policy = await PolicyStore.open({ blobs: new MemoryBlobStore(), clock: new FakeClock() });
    const store = new MemoryDataStore(OLD_DATA);
    const file = await PluginDataFile.load(store);
    const logger = recordingLogger();
    await moveLegacyAgentTools(policy, file, logger);
    expect(policy.get().agent_tools).toEqual({ read_only: true, disabled: ['lithos_write'] });
    expect((store.saved as { legacyAgentTools: unknown }).legacyAgentTools).toBeNull();
    expect(logger.lines).toEqual(['info: read-only and switched-off tools moved from the plugin settings to the vault policy (.lithos/policy.json)']);
  });

  test('a policy that cannot be saved: data.json keeps them for the next start, and a warning says why', async () => {
    const policy = await PolicyStore.open({ blobs: new UnwritablePolicyBlobs(), clock: new FakeClock() });
    const store = new MemoryDataStore(OLD_DATA);
    const file = await PluginDataFile.load(store);
    const logger = recordingLogger();
    await moveLegacyAgentTools(policy, file, logger);
    expect(file.data.legacyAgentTools).toEqual({ read_only: true, disabled: ['lithos_write'] });
    expect(store.saved).toBe(OLD_DATA);
    expect(logger.lines).toEqual([expect.stringMatching(/^warn: could not move the agents' tool settings to the vault policy: .*disk full/)]);
  });

  test('nothing saved by an older version: nothing changes', async () => {
    const blobs = new MemoryBlobStore();
    const policy = await PolicyStore.open({ blobs, clock: new FakeClock() });
    const store = new MemoryDataStore({ settings: {} });
    const logger = recordingLogger();
    await moveLegacyAgentTools(policy, await PluginDataFile.load(store), logger);
    expect(blobs.writes).toBe(0);
    expect(logger.lines).toEqual([]);
  });
});
