import { FakeApp } from './fake-obsidian';
import { builtPluginForSuite, eventually, indexItem, pluginHost, settingsTab, type LoadedPlugin, type PluginHost } from './plugin-harness';

/** Each core command of the built plugin, run from the palette against a fixture vault (mobile unless said). */

const built = builtPluginForSuite();

const running: { h: PluginHost; p: LoadedPlugin }[] = [];
afterEach(async () => {
  for (const { h, p } of running.splice(0)) {
    p.unload();
    await eventually(() => !h.app.adapter.files.has('.lithos/lock.json'), () => 'lock still held');
    h.dispose();
  }
});

async function ready(o: { desktop?: boolean; settings?: Record<string, unknown>; basePath?: string } = {}): Promise<{ h: PluginHost; p: LoadedPlugin; app: FakeApp; lastNotice(): string }> {
  const app = FakeApp.with({
    'alpha.md': '# Alpha\nThe quick brown fox jumps over the fence.\n',
    'notes/beta.md': '# Beta\nLazy dogs sleep all afternoon.\n',
  });
  if (o.basePath) app.adapter.onDisk(o.basePath);
  app.metadataCache.resolved = true;
  app.workspace.finishLayout();
  const h = pluginHost(built.code, built.manifest, { app, desktop: o.desktop ?? false, store: { data: { settings: { bridge: { enabled: false }, ...o.settings } }, saves: 0 } });
  const p = await h.load();
  running.push({ h, p });
  await eventually(() => indexItem(p).textContent === 'Lithos: ready · 2 notes', () => indexItem(p).textContent);
  return { h, p, app, lastNotice: () => h.record.notices[h.record.notices.length - 1] ?? '' };
}

async function run(r: { h: PluginHost; p: LoadedPlugin }, id: string): Promise<string> {
  const before = r.h.record.notices.length;
  r.p.runCommand(id);
  await eventually(() => r.h.record.notices.length > before, () => r.h.record.notices);
  return r.h.record.notices[r.h.record.notices.length - 1];
}

describe('core commands', () => {
  test('verify-audit: intact after an audited change; an edited line is reported as broken', async () => {
    const r = await ready();
    // Setting the write policy is audited (policy.set).
    await settingsTab(r.p).find('Agents propose, I confirm').controls[0].change('decisions');
    expect(await run(r, 'verify-audit')).toMatch(/^Lithos audit log intact: 1 entry, newest #1\.$/);

    const log = r.app.adapter.text('.lithos/audit.jsonl') ?? '';
    expect(log).toContain('decisions');
    r.app.adapter.put('.lithos/audit.jsonl', log.replace('decisions', 'elsewhere'));
    expect(await run(r, 'verify-audit')).toMatch(/^Lithos audit log BROKEN \(1 problem\): hash_mismatch at line 1: /);
  });

  test('consolidate-now reports what it did', async () => {
    const r = await ready();
    expect(await run(r, 'consolidate-now')).toMatch(/^Lithos consolidated \d+ working memor(y|ies): \d+ edges reinforced, \d+ created, \d+ hypotheses promoted, \d+ concepts created, \d+ summaries refreshed\.$/);
  });

  test('reembed-space embeds every note into the offline space again', async () => {
    const r = await ready();
    expect(await run(r, 'reembed-space')).toBe('Lithos re-embedded 2 notes into hash-ngram-v2-384.');
    expect(indexItem(r.p).textContent).toBe('Lithos: ready · 2 notes');
  });

  test('rebuild-index picks up files Obsidian did not report', async () => {
    const r = await ready();
    r.app.adapter.put('delta.md', '# Delta\nZebra crossings.\n');
    r.app.vault.sync();
    r.p.runCommand('rebuild-index');
    await eventually(() => indexItem(r.p).textContent === 'Lithos: ready · 3 notes', () => indexItem(r.p).textContent);
  });

  test('copy MCP config: Claude Desktop JSON and the Claude Code command, with this vault and the configured bridge path', async () => {
    const r = await ready({ desktop: true, basePath: '/home/me/My Vault', settings: { bridge: { enabled: false, cliPath: '/opt/lithos/dist/bridge/cli.js' } } });
    expect(await run(r, 'copy-mcp-config-claude-desktop')).toMatch(/Claude Desktop MCP config for this vault is on the clipboard/);
    expect(JSON.parse(r.h.clipboard[0])).toEqual({
      mcpServers: { lithos: { command: 'node', args: ['/opt/lithos/dist/bridge/cli.js', 'mcp', '--vault', '/home/me/My Vault', '--agent', 'claude-desktop'] } },
    });
    await run(r, 'copy-mcp-config-claude-code');
    expect(r.h.clipboard[1]).toBe("claude mcp add lithos -- node /opt/lithos/dist/bridge/cli.js mcp --vault '/home/me/My Vault' --agent claude-code");
  });

  test('copy MCP config on mobile says why it cannot', async () => {
    const r = await ready();
    expect(await run(r, 'copy-mcp-config-claude-code')).toMatch(/needs a vault folder on disk/);
    expect(r.h.clipboard).toEqual([]);
  });

  test('start-bridge on mobile fails with a clear message; leave-safe-mode outside safe mode says so', async () => {
    const r = await ready();
    expect(await run(r, 'start-bridge')).toMatch(/failed: .*not available on mobile/);
    expect(await run(r, 'leave-safe-mode')).toBe('Lithos is not in safe mode.');
  });
});
