import { mkdirSync, mkdtempSync, readFileSync, existsSync, rmSync } from 'fs';
import { createServer } from 'net';
import os from 'os';
import path from 'path';
import { RelayClient } from '../../bridge/relay/relay-client';
import { type LithosError } from '../../shared/errors';
import { FakeApp } from './fake-obsidian';
import { builtPluginForSuite, bridgeItem, eventually, indexItem, pluginHost, settingsTab, type LoadedPlugin, type PluginHost } from './plugin-harness';

/**
 * Desktop: the built plugin with Node available (as in Electron's renderer) runs the real websocket host
 * on 127.0.0.1. Settings persist in data.json and apply without a restart: the bridge toggle starts and
 * stops the host, read-only and the per-tool switches refuse calls from a real relay client, the
 * schedules and callouts reach the engine.
 */

const built = builtPluginForSuite();

let dir = '';
let h: PluginHost | null = null;
let plugin: LoadedPlugin | null = null;
const clients: RelayClient[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'lithos-plugin-bridge-'));
  mkdirSync(path.join(dir, '.lithos'));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  plugin?.unload();
  plugin = null;
  if (h) await eventually(() => !existsSync(path.join(dir, '.lithos', 'bridge.json')), () => 'bridge.json still there');
  h?.dispose();
  h = null;
  rmSync(dir, { recursive: true, force: true });
});

/** Port 0: the OS picks a free one, so parallel runs never collide. */
async function start(settings: Record<string, unknown> = {}): Promise<{ app: FakeApp; plugin: LoadedPlugin; host: PluginHost }> {
  const app = FakeApp.with({ 'alpha.md': '# Alpha\nThe quick brown fox.\n', 'decisions/db.md': '# Database\nWe use SQLite.\n' });
  app.adapter.onDisk(dir);
  app.metadataCache.resolved = true;
  app.workspace.finishLayout();
  h = pluginHost(built.code, built.manifest, { app, desktop: true, store: { data: { settings: { bridge: { port: 0 }, ...settings } }, saves: 0 } });
  plugin = await h.load();
  const p = plugin;
  await eventually(() => indexItem(p).textContent === 'Lithos: ready · 2 notes', () => indexItem(p).textContent);
  return { app, plugin: p, host: h };
}

/** A port free right now (the OS picks it; closed again before the plugin binds it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function bridgeJson(): { port: number; token: string } | null {
  const f = path.join(dir, '.lithos', 'bridge.json');
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as { port: number; token: string }) : null;
}

async function connect(agentId: string): Promise<RelayClient> {
  const client = new RelayClient({ vaultRoot: dir, agentId, bridgeVersion: 'test', pingIntervalMs: 0 });
  clients.push(client);
  const connected = new Promise((resolve) => client.once('connected', resolve));
  client.start();
  await connected;
  return client;
}

async function refusal(p: Promise<unknown>): Promise<LithosError> {
  try {
    await p;
  } catch (err) {
    return err as LithosError;
  }
  throw new Error('the call was not refused');
}

describe('bridge host in the plugin (desktop)', () => {
  test('enabled by default: listens on loopback, writes bridge.json, counts connected agents in the status bar', async () => {
    const { plugin } = await start();
    await eventually(() => /^Bridge: :\d+ · 0 agents$/.test(bridgeItem(plugin).textContent ?? ''), () => bridgeItem(plugin).textContent);
    const info = bridgeJson();
    expect(info?.port).toBeGreaterThan(0);
    expect(bridgeItem(plugin).textContent).toBe(`Bridge: :${info?.port} · 0 agents`);

    const client = await connect('coder');
    await eventually(() => bridgeItem(plugin).textContent === `Bridge: :${info?.port} · 1 agent`, () => bridgeItem(plugin).textContent);
    expect(bridgeItem(plugin).attrs.get('aria-label')).toMatch(/connected: coder/);
    const hits = (await client.call('lithos_search', { query: 'quick brown fox' })) as { results?: { path: string }[] };
    expect(JSON.stringify(hits)).toContain('alpha.md');
  });

  test('the settings toggle stops the host (bridge.json removed) and starts it again, and the choice is saved', async () => {
    const { plugin, host } = await start();
    await eventually(() => bridgeJson() !== null, () => bridgeItem(plugin).textContent);

    const tab = settingsTab(plugin);
    await tab.find('Enabled').controls[0].change(false);
    await eventually(() => bridgeJson() === null && bridgeItem(plugin).textContent === 'Bridge: off', () => bridgeItem(plugin).textContent);
    expect((host.store.data as { settings: { bridge: { enabled: boolean } } }).settings.bridge.enabled).toBe(false);

    await tab.find('Enabled').controls[0].change(true);
    await eventually(() => bridgeJson() !== null && /^Bridge: :\d+/.test(bridgeItem(plugin).textContent ?? ''), () => bridgeItem(plugin).textContent);
  });

  test('read-only refuses every writing tool with forbidden, reads still work; switching it off applies to the next call', async () => {
    const { app, plugin } = await start();
    await eventually(() => bridgeJson() !== null, () => bridgeItem(plugin).textContent);
    const client = await connect('writer');
    const tab = settingsTab(plugin);
    await tab.find('Read-only').controls[0].change(true);

    expect(JSON.parse(app.adapter.text('.lithos/policy.json') ?? '{}').agent_tools).toEqual({ read_only: true, disabled: [] });
    const err = await refusal(client.call('lithos_write', { title: 'Sneaky', content: 'Should not land.', namespace: 'scratch' }));
    expect(err.code).toBe('forbidden');
    expect(err.message).toMatch(/agents are read-only in this vault/);
    expect([...app.adapter.files.keys()].filter((k) => k.toLowerCase().includes('sneaky'))).toEqual([]);
    await client.call('lithos_read', { path: 'alpha.md' });

    await tab.find('Read-only').controls[0].change(false);
    await client.call('lithos_write', { title: 'Allowed', content: 'Lands now.', namespace: 'scratch' });
    await eventually(() => app.adapter.files.has('scratch/Allowed.md'), () => [...app.adapter.files.keys()]);
  });

  test('hidden folders typed in settings become the vault policy: an agent no longer finds the note, from the next call', async () => {
    const { plugin, app } = await start();
    await eventually(() => bridgeJson() !== null, () => bridgeItem(plugin).textContent);
    const client = await connect('snoop');
    await client.call('lithos_read', { path: 'decisions/db.md' });
    await settingsTab(plugin).find('Hidden folders').controls[0].change('/decisions/\n');
    expect(JSON.parse(app.adapter.text('.lithos/policy.json') ?? '{}').hidden_folders).toEqual(['decisions']);
    expect((await refusal(client.call('lithos_read', { path: 'decisions/db.md' }))).code).toBe('not_found');
  });

  test('a tool switched off in settings goes to the vault policy and is refused with a message naming the setting', async () => {
    const { plugin, app } = await start();
    await eventually(() => bridgeJson() !== null, () => bridgeItem(plugin).textContent);
    const client = await connect('reader');
    await settingsTab(plugin).find('lithos_search').controls[0].change(false);
    expect(JSON.parse(app.adapter.text('.lithos/policy.json') ?? '{}').agent_tools).toEqual({ read_only: false, disabled: ['lithos_search'] });
    const err = await refusal(client.call('lithos_search', { query: 'fox' }));
    expect(err.code).toBe('forbidden');
    expect(err.message).toMatch(/turned off for agents in this vault \(Settings → Lithos Memory → Agents bridge/);
  });

  test('the tool profile chosen in settings goes to the vault policy, where every bridge reads it', async () => {
    const { plugin, app } = await start();
    await eventually(() => bridgeJson() !== null, () => bridgeItem(plugin).textContent);
    const profile = settingsTab(plugin).find('Tool profile').controls[0];
    await profile.change('full');
    expect(JSON.parse(app.adapter.text('.lithos/policy.json') ?? '{}').agent_tools).toEqual({ read_only: false, disabled: [], profile: 'full' });
    await settingsTab(plugin).find('Tool profile').controls[0].change('core');
    expect(JSON.parse(app.adapter.text('.lithos/policy.json') ?? '{}').agent_tools.profile).toBe('core');
  });

  test('a key issued in settings is shown once and binds the agent: without it a bridge may only read; revoked, trust by name returns', async () => {
    const { plugin, app } = await start();
    await eventually(() => bridgeJson() !== null, () => bridgeItem(plugin).textContent);
    // The fake tab keeps every rendering's rows: the last rendering (from its first heading on) is the one on screen.
    const rows = (name: string) => {
      const all = settingsTab(plugin).settings;
      const start = all.map((x) => x.name).lastIndexOf('Agents bridge');
      return all.slice(start).filter((x) => x.name === name);
    };
    const issue = settingsTab(plugin).find('Issue a key');
    issue.controls[0].type('bob');
    await issue.controls[1].change();
    const key = String(rows('New key for bob').pop()?.controls[0].value);
    expect(key).toMatch(/^lk_/);
    expect(app.adapter.text('.lithos/agent-keys.json')).toContain('"bob"');
    expect(app.adapter.text('.lithos/agent-keys.json')).not.toContain(key);
    const write = (c: RelayClient, title: string) => c.call('lithos_write', { title, content: 'From bob.', namespace: 'scratch' });
    const unkeyed = await connect('bob');
    expect((await refusal(write(unkeyed, 'Unkeyed'))).code).toBe('forbidden');
    await unkeyed.close(); // one connection per agent id
    const keyed = new RelayClient({ vaultRoot: dir, agentId: 'bob', agentKey: key, bridgeVersion: 'test', pingIntervalMs: 0 });
    clients.push(keyed);
    const up = new Promise((resolve) => keyed.once('connected', resolve));
    keyed.start();
    await up;
    await expect(write(keyed, 'Keyed')).resolves.toMatchObject({ created: true });
    await rows('bob').pop()?.controls[0].change();
    expect(rows('bob')).toEqual([]);
    expect(rows('New key for bob')).toEqual([]);
    await expect(write(keyed, 'After revoke')).resolves.toMatchObject({ created: true }); // no key left in the vault
  });

  test("an older version's read-only and switched-off tools (data.json) move to the vault policy once the memory opens", async () => {
    const { plugin, app, host } = await start({ bridge: { port: 0, readOnly: true, disabledTools: ['lithos_delete'] } });
    await eventually(() => bridgeJson() !== null, () => bridgeItem(plugin).textContent);
    await eventually(() => app.adapter.text('.lithos/policy.json') !== null, () => [...app.adapter.files.keys()]);
    expect(JSON.parse(app.adapter.text('.lithos/policy.json')!).agent_tools).toEqual({ read_only: true, disabled: ['lithos_delete'] });
    await eventually(() => (host.store.data as { legacyAgentTools: unknown }).legacyAgentTools === null, () => host.store.data);
    const client = await connect('mover');
    expect((await refusal(client.call('lithos_write', { title: 'No', content: 'Refused.', namespace: 'scratch' }))).code).toBe('forbidden');
  });

  test('stop/start commands, and regenerating the token rewrites bridge.json with a new one', async () => {
    const { plugin, host } = await start();
    await eventually(() => bridgeJson() !== null, () => bridgeItem(plugin).textContent);
    const before = bridgeJson()?.token;
    plugin.runCommand('regenerate-bridge-token');
    await eventually(() => bridgeJson()?.token !== before, () => bridgeJson());
    // The notice follows the new bridge.json; under full-suite load it may land a moment later.
    await eventually(() => /new bridge token/.test(host.record.notices.join('\n')), () => host.record.notices);

    plugin.runCommand('stop-bridge');
    await eventually(() => bridgeJson() === null && bridgeItem(plugin).textContent === 'Bridge: off', () => bridgeItem(plugin).textContent);
    plugin.runCommand('start-bridge');
    await eventually(() => bridgeJson() !== null, () => bridgeItem(plugin).textContent);
  });

  test('unload stops the host: bridge.json removed, the port closed', async () => {
    const { plugin } = await start();
    await eventually(() => bridgeJson() !== null, () => bridgeItem(plugin).textContent);
    const client = await connect('leaver');
    const gone = new Promise((resolve) => client.once('disconnected', resolve));
    plugin.unload();
    await eventually(() => bridgeJson() === null, () => 'bridge.json still there');
    await gone;
  });
});

describe('settings apply without a restart', () => {
  test('schedules, callouts, retrieval defaults: saved to data.json on change, out-of-range input ignored, read back by the next start', async () => {
    const { plugin, host } = await start({ bridge: { enabled: false, port: 0 } });
    const tab = settingsTab(plugin);
    await tab.find('Consolidation every (hours)').controls[0].change('2');
    await tab.find('Decay every (hours)').controls[0].change('12');
    await tab.find('Conflict and status callouts').controls[0].change(false);
    await tab.find('Max notes').controls[0].change('7');
    await tab.find('Default intent').controls[0].change('explore');
    await tab.find('Max notes').controls[0].change('500'); // out of range: ignored, nothing saved
    const saved = (host.store.data as { settings: Record<string, Record<string, unknown> | boolean> }).settings;
    expect(saved.learning).toEqual({ consolidationIntervalHours: 2, decayIntervalHours: 12 });
    expect(saved.callouts).toBe(false);
    expect(saved.retrieval).toEqual({ maxNodes: 7, defaultIntent: 'explore', defaultClass: null });

    // A fresh instance (Obsidian restarted) reads the same settings back.
    plugin.unload();
    await eventually(() => !host.app.adapter.files.has('.lithos/lock.json'), () => 'lock still held');
    const again = await host.load();
    const tab2 = settingsTab(again);
    expect(tab2.find('Max notes').controls[0].value).toBe('7');
    expect(tab2.find('Conflict and status callouts').controls[0].value).toBe(false);
    again.unload();
  });

  test('text fields apply when the edit is committed, not per keystroke: typing a port or a folder list restarts and audits nothing', async () => {
    const { plugin, app, host } = await start();
    await eventually(() => bridgeJson() !== null, () => bridgeItem(plugin).textContent);
    const before = bridgeJson()!.port;
    const tab = settingsTab(plugin);
    const port = tab.find('Port').controls[0];
    const hidden = tab.find('Hidden folders').controls[0];
    const saves = host.store.saves;
    for (const partial of ['4', '45', '451', '4513']) port.type(partial);
    for (const partial of ['d', 'de', 'dec']) hidden.type(partial);
    await new Promise((r) => setTimeout(r, 30));
    expect(bridgeJson()!.port).toBe(before);
    expect(host.store.saves).toBe(saves);
    expect(app.adapter.text('.lithos/policy.json')).toBeUndefined();

    // Committed: the bridge restarts on the new port (free when asked; should a parallel spec take it in
    // between, the host falls back to another free port, which is a restart all the same).
    const free = await freePort();
    await port.change(String(free));
    await eventually(() => bridgeJson() !== null && bridgeJson()!.port !== before, () => bridgeJson());
    expect((host.store.data as { settings: { bridge: { port: number } } }).settings.bridge.port).toBe(free);
  });

  test('closing the tab hands over to Obsidian (super.hide) without error, and it can be shown again', async () => {
    const { plugin } = await start({ bridge: { enabled: false, port: 0 } });
    const tab = settingsTab(plugin);
    (tab as unknown as { hide(): void }).hide();
    expect((tab as unknown as { hidden: number }).hidden).toBe(1);
    expect(settingsTab(plugin).find('Port').controls[0].value).toBe('0');
  });

  test('a bad port or schedule is flagged on the field as typed and not saved when committed', async () => {
    const { plugin, host } = await start({ bridge: { enabled: false, port: 0 } });
    const tab = settingsTab(plugin);
    const port = tab.find('Port').controls[0];
    port.type('80a');
    expect(port.validity).toBe('A port number from 0 to 65535 (0: any free port).');
    await port.change('70000');
    expect(port.validity).toBe('A port number from 0 to 65535 (0: any free port).');
    const hours = tab.find('Decay every (hours)').controls[0];
    await hours.change('0.1');
    expect(hours.validity).toBe('Hours, from 0.25 to 720.');
    await hours.change('6');
    expect(hours.validity).toBe('');
    const saved = (host.store.data as { settings: { bridge: { port: number }; learning: { decayIntervalHours: number } } }).settings;
    expect(saved.bridge.port).toBe(0);
    expect(saved.learning.decayIntervalHours).toBe(6);
  });

  test('write policy: namespaces typed in settings become the vault policy (agents propose there)', async () => {
    const { plugin, app } = await start({ bridge: { enabled: false, port: 0 } });
    await settingsTab(plugin).find('Agents propose, I confirm').controls[0].change('decisions\n\n  team/**  \n');
    await eventually(() => (app.adapter.text('.lithos/policy.json') ?? '').includes('team/**'), () => app.adapter.text('.lithos/policy.json'));
    expect(JSON.parse(app.adapter.text('.lithos/policy.json') ?? '{}').propose_namespaces).toEqual(['decisions', 'team/**']);
  });
});
