import { FakeApp } from './fake-obsidian';
import { builtPluginForSuite, eventually, indexItem, bridgeItem, pluginHost, type PluginHost } from './plugin-harness';

/**
 * The built plugin's lifecycle against the fake Obsidian (mobile mode: no Node, so no bridge): what onload
 * registers, when indexing starts, that vault events reach the engine only once it is open, that unload
 * leaves nothing behind, and the crash-loop guard.
 */

const built = builtPluginForSuite();

const hosts: PluginHost[] = [];
afterEach(() => {
  for (const h of hosts.splice(0)) h.dispose();
});

function fixture(): FakeApp {
  return FakeApp.with({
    'alpha.md': '# Alpha\nThe quick brown fox jumps over the fence.\n',
    'notes/beta.md': '# Beta\nLazy dogs sleep all afternoon.\n',
  });
}

function host(app: FakeApp, store?: PluginHost['store']): PluginHost {
  const h = pluginHost(built.code, built.manifest, { app, desktop: false, store });
  hosts.push(h);
  return h;
}

const lithosFiles = (app: FakeApp): string[] => [...app.adapter.files.keys()].filter((k) => k.startsWith('.lithos/'));

describe('plugin lifecycle', () => {
  test('onload registers views, commands, settings tab and two status items, and opens nothing yet', async () => {
    const app = fixture();
    const h = host(app);
    const plugin = await h.load();
    expect(plugin.commands.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'search',
        'rebuild-index',
        'consolidate-now',
        'reembed-space',
        'verify-audit',
        'copy-mcp-config-claude-desktop',
        'copy-mcp-config-claude-code',
        'start-bridge',
        'stop-bridge',
        'regenerate-bridge-token',
        'leave-safe-mode',
        'open-note-memory',
        'open-retrieve',
      ]),
    );
    expect(new Set(plugin.commands.map((c) => c.id)).size).toBe(plugin.commands.length);
    expect(plugin.views.size).toBe(6); // the panels (plugin/panels/panel-types.ts)
    expect(plugin.settingTabs).toHaveLength(1);
    expect(indexItem(plugin).textContent).toBe('Lithos: starting…');
    expect(bridgeItem(plugin).textContent).toBe('Bridge: desktop only');
    expect(app.vault.listenerCount()).toBe(0);
    expect(lithosFiles(app)).toEqual([]);
    plugin.unload();
  });

  test('indexing waits for layout-ready AND the resolved metadata cache; vault events reach the engine only after that', async () => {
    const app = fixture();
    const h = host(app);
    const plugin = await h.load();

    // An edit before layout-ready is not followed by an event listener: the first scan picks it up.
    await app.vault.create('early.md', '# Early\nWritten while Obsidian was still loading.\n');
    app.workspace.finishLayout();
    // Layout-ready's effect: the plugin now listens for the metadata cache, and for nothing else yet.
    await eventually(() => app.metadataCache.listenerCount() === 1, () => app.metadataCache.listenerCount());
    expect(app.vault.listenerCount()).toBe(0);
    expect(indexItem(plugin).textContent).toBe('Lithos: starting…');
    app.metadataCache.resolve();
    await eventually(() => indexItem(plugin).textContent === 'Lithos: ready · 3 notes', () => indexItem(plugin).textContent);
    expect(app.metadataCache.listenerCount()).toBe(0);
    expect(app.vault.listenerCount()).toBe(7); // notes: create/modify/delete/rename; the devices folder: create/modify/rename

    await app.vault.create('late.md', '# Late\nZebra crossings are striped.\n');
    await eventually(() => indexItem(plugin).textContent === 'Lithos: ready · 4 notes', () => indexItem(plugin).textContent);
    plugin.unload();
  });

  test('unloading while waiting for the metadata cache removes its listener, and nothing opens later', async () => {
    const app = fixture();
    app.workspace.finishLayout();
    const h = host(app);
    const plugin = await h.load();
    expect(app.metadataCache.listenerCount()).toBe(1);
    plugin.unload();
    expect(app.metadataCache.listenerCount()).toBe(0);
    app.metadataCache.resolve();
    await new Promise((r) => setTimeout(r, 50));
    expect(lithosFiles(app)).toEqual([]);
  });

  test('unload removes every listener, stops every interval, releases the lock and clears the start marker', async () => {
    const app = fixture();
    app.metadataCache.resolved = true; // enabled after start-up: Obsidian has resolved long ago
    app.workspace.finishLayout();
    const h = host(app);
    const plugin = await h.load();
    await eventually(() => indexItem(plugin).textContent === 'Lithos: ready · 2 notes', () => indexItem(plugin).textContent);
    expect(app.adapter.files.has('.lithos/lock.json')).toBe(true);
    const pending = (): number => h.liveIntervals.size + h.liveTimeouts.size;
    expect(pending()).toBeGreaterThan(0); // the lock's heartbeat, the consolidation and decay schedules

    plugin.unload();
    expect(app.vault.listenerCount()).toBe(0);
    expect(app.metadataCache.listenerCount()).toBe(0);
    expect(plugin.statusItems).toEqual([]);
    await eventually(() => !app.adapter.files.has('.lithos/lock.json'), () => lithosFiles(app));
    await eventually(() => pending() === 0, () => pending());
    expect((h.store.data as { indexingSince: unknown }).indexingSince).toBeNull();
    expect(h.record.notices).toEqual([]);
  });

  test("the panels' and commands' memory session is the person's, opened with the engine and dropped when it closes", async () => {
    const app = fixture();
    app.metadataCache.resolved = true;
    app.workspace.finishLayout();
    const plugin = await host(app).load();
    await eventually(() => indexItem(plugin).textContent === 'Lithos: ready · 2 notes', () => indexItem(plugin).textContent);
    const session = (plugin as unknown as { session: { memory: { caller: unknown; notes: { all(): unknown[] } } | null } }).session;
    const memory = session.memory;
    expect(memory?.caller).toEqual({ kind: 'human', agent_id: null });
    expect(memory?.notes.all()).toHaveLength(2);
    plugin.unload();
    expect(session.memory).toBeNull();
    await eventually(() => !app.adapter.files.has('.lithos/lock.json'), () => lithosFiles(app));
  });

  test('a normal start writes the "indexing" marker before opening the memory and clears it when the first scan ends', async () => {
    const app = fixture();
    app.metadataCache.resolved = true;
    app.workspace.finishLayout();
    const h = host(app);
    const plugin = await h.load();
    await eventually(() => indexItem(plugin).textContent === 'Lithos: ready · 2 notes', () => indexItem(plugin).textContent);
    await eventually(() => (h.store.data as { indexingSince: unknown } | null)?.indexingSince === null, () => h.store.data);
    const markers = (h.store.history ?? []).map((d) => (d as { indexingSince: string | null }).indexingSince);
    expect(markers.length).toBeGreaterThanOrEqual(2);
    expect(typeof markers[0]).toBe('string');
    expect(markers[markers.length - 1]).toBeNull();
    plugin.unload();
  });

  test('crash-loop guard: a marker left by a start that died indexing → safe mode (nothing opened, a notice), until "Leave safe mode"', async () => {
    const app = fixture();
    app.metadataCache.resolved = true;
    app.workspace.finishLayout();
    const store = { data: { version: 1, settings: {}, indexingSince: '2026-01-01T00:00:00.000Z' } as unknown, saves: 0 };
    const h = host(app, store);
    const plugin = await h.load();

    expect(indexItem(plugin).textContent).toBe('Lithos: safe mode');
    expect(indexItem(plugin).attrs.get('aria-label')).toMatch(/stopped while indexing/);
    expect(h.record.notices.join('\n')).toMatch(/safe mode/);
    await new Promise((r) => setTimeout(r, 50));
    expect(lithosFiles(app)).toEqual([]);
    expect(app.vault.listenerCount()).toBe(0);

    // Commands explain instead of acting; a click on the status item says what to do.
    plugin.runCommand('rebuild-index');
    indexItem(plugin).dispatch('click');
    await eventually(() => h.record.notices.length >= 3, () => h.record.notices);
    expect(h.record.notices.slice(1).every((n) => /Leave safe mode/.test(n))).toBe(true);

    plugin.runCommand('leave-safe-mode');
    await eventually(() => indexItem(plugin).textContent === 'Lithos: ready · 2 notes', () => indexItem(plugin).textContent);
    await eventually(() => (h.store.data as { indexingSince: unknown }).indexingSince === null, () => h.store.data);
    plugin.unload();
    await eventually(() => !app.adapter.files.has('.lithos/lock.json'), () => lithosFiles(app));

    // The next start is a normal one.
    const again = await host(app, h.store).load();
    await eventually(() => indexItem(again).textContent === 'Lithos: ready · 2 notes', () => indexItem(again).textContent);
    again.unload();
  });

  test('learned data found lost at open is said in a notice, not only in the console', async () => {
    const app = fixture();
    // The audit log was emptied while its head still records three entries.
    app.adapter.put('.lithos/audit.jsonl', '');
    app.adapter.put('.lithos/audit.head.json', JSON.stringify({ seq: 3, hash: 'a'.repeat(64) }));
    app.metadataCache.resolved = true;
    app.workspace.finishLayout();
    const h = host(app);
    const plugin = await h.load();
    await eventually(() => indexItem(plugin).textContent === 'Lithos: ready · 2 notes', () => indexItem(plugin).textContent);
    expect(h.record.notices).toEqual([expect.stringMatching(/^Lithos: audit\.jsonl ends at entry 0 but audit\.head\.json records entry 3: 3 audit entries were removed/)]);
    plugin.unload();
  });

  test('status bar: an open failure shows "error" with the reason on hover; clicking it repeats the reason', async () => {
    const app = fixture();
    app.adapter.put('.lithos/policy.json', '{');
    app.adapter.available = false; // the vault folder vanished: listing fails
    app.metadataCache.resolved = true;
    app.workspace.finishLayout();
    const h = host(app);
    const plugin = await h.load();
    await eventually(() => indexItem(plugin).textContent === 'Lithos: error', () => indexItem(plugin).textContent);
    const reason = indexItem(plugin).attrs.get('aria-label') ?? '';
    expect(reason).toMatch(/^Lithos could not/);
    indexItem(plugin).dispatch('click');
    expect(h.record.notices[h.record.notices.length - 1]).toBe(reason);
    // A failure that is not a crash clears the marker: the next start is not in safe mode.
    await eventually(() => (h.store.data as { indexingSince: unknown } | null)?.indexingSince === null, () => h.store.data);
    plugin.unload();
  });
});
