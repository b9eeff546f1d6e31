import { Notice, Platform, Plugin, requestUrl } from 'obsidian';
import { vaultIgnoresCase } from './vault-case';
import { asLithosError } from '../shared/errors';
import { TOOL_CATALOG } from '../shared/tools/catalog';
import { createDispatcher } from '../shared/tools/dispatcher';
import { createConsoleLogger } from './console-logger';
import { StatusBar, BridgeStatusBar, type LithosStatus } from './status-bar';
import { SearchModal } from './search-modal';
import { EngineSession } from './engine-session';
import { BridgeControl } from './bridge-control';
import { registerCoreCommands, type CommandHost } from './commands';
import { LithosSettingTab } from './settings-tab';
import { PluginDataFile } from './startup/plugin-data';
import { whenMetadataResolved } from './startup/metadata-ready';
import { registerPanels, revealPanel, type PanelType } from './panels';
import { PanelChanges, panelContext } from './panel-context';
import { HumanTools } from './panels/human-tools';
import type { LithosSettings } from './settings';
import { fetchWithFallback, streamingFetch } from './model-fetch';
import { LithosPublicApi } from './public-api';
import { ModelDownloads } from './model-downloads';
import { ObsidianModelFiles } from './obsidian-model-files';
import { MiniLmSwitch } from './minilm/minilm-switch';
import { loadMiniLm } from './minilm/load-minilm';
import { moveLegacyAgentTools } from './legacy-migration';
import { bridgeStatusClick, followClick, indexStatusClick } from './status-clicks';
import { applyOpeningSettings, applySettingsActions, settingsActions } from './settings-apply';
import type { EngineControls } from './engine-controls';
import { obsidianGitSource, type GitAdapter } from './obsidian-git-log';
import { desktopHostname, obsidianDeviceName } from './device-name';

/** Start indexing anyway if Obsidian never says its metadata cache resolved (it may have, before we listened). */
const METADATA_FALLBACK_MS = 10_000;

/**
 * Composition root: wires Obsidian (vault, status bar, settings, commands, panels) to the host-free engine
 * and, on desktop, to the agents' websocket bridge. The work itself lives in the modules imported above.
 */
export default class LithosMemoryPlugin extends Plugin implements CommandHost {
  private readonly logger = createConsoleLogger();
  private file: PluginDataFile | null = null;
  private session: EngineSession | null = null;
  private bridge: BridgeControl | null = null;
  private models: ModelDownloads | null = null;
  private miniLm: MiniLmSwitch | null = null;
  private indexStatus: StatusBar | null = null;
  private lastStatus: LithosStatus = { state: 'starting' };
  private safeMode = false;
  private unloaded = false;
  private readonly changes = new PanelChanges(this.logger);
  /** For other plugins: `app.plugins.plugins['lithos-memory'].api` (public-api.ts, docs/events.md). */
  readonly api = new LithosPublicApi(
    (name, event) => this.app.workspace.trigger(name, event),
    (err) => this.logger.warn('a Lithos event listener of another plugin failed', { error: String(err) }),
  );

  override async onload(): Promise<void> {
    this.file = await PluginDataFile.load(this);
    this.safeMode = this.file.crashedWhileIndexing;

    const clicks = { notify: (m: string) => this.notify(m), reveal: (type: PanelType) => void revealPanel(this, type) };
    const indexItem = this.addStatusBarItem();
    this.indexStatus = new StatusBar(indexItem);
    this.registerDomEvent(indexItem, 'click', () => followClick(indexStatusClick(this.lastStatus), clicks));
    const bridgeItem = this.addStatusBarItem();
    const bridgeStatus = new BridgeStatusBar(bridgeItem);
    this.registerDomEvent(bridgeItem, 'click', () => followClick(bridgeStatusClick(this.bridge?.state), clicks));

    const session = (this.session = this.makeSession());
    // What agents may call (read-only, tools switched off) is the vault policy's agent_tools, which this
    // dispatcher enforces on every call, here as in headless `lithos mcp`. The panels call it as the person.
    const dispatcher = createDispatcher(TOOL_CATALOG, () => session.toolHost());
    this.bridge = new BridgeControl({
      desktop: Platform.isDesktopApp,
      lithosDir: () => {
        const base = this.vaultPath();
        return base ? `${base}/.lithos` : null;
      },
      vaultName: this.app.vault.getName(),
      pluginVersion: this.manifest.version,
      dispatcher,
      logger: this.logger,
      onState: (s) => bridgeStatus.show(s),
    });
    bridgeStatus.show(this.bridge.state);

    registerPanels(
      this,
      panelContext({
        session: () => this.session,
        tools: new HumanTools(dispatcher),
        settings: () => this.currentSettings(),
        changes: this.changes,
        safeMode: () => this.safeMode,
      }),
    );
    registerCoreCommands(this, this);
    const models = (this.models = new ModelDownloads({
      files: new ObsidianModelFiles(this.app.vault.adapter),
      fetch: fetchWithFallback(streamingFetch(), (req) => requestUrl(req)),
      notify: (m) => this.notify(m),
      downloaded: () => void this.applyEmbeddings(),
    }));
    const miniLm = (this.miniLm = new MiniLmSwitch({
      status: (root) => models.status(root),
      load: (root) => loadMiniLm({ adapter: this.app.vault.adapter, root }),
      progress: (done, total) => this.status({ state: 'progress', phase: 'embed', done, total }),
      ready: () => this.showReady(),
      notify: (m) => this.notify(m),
      yieldTurn: () => new Promise((r) => window.setTimeout(r, 0)),
    }));
    this.addSettingTab(
      new LithosSettingTab(this.app, this, {
        settings: () => this.currentSettings(),
        save: (fn) => this.changeSettings(fn),
        controls: () => this.session?.controls ?? null,
        bridge: () => this.bridge?.state ?? { kind: 'off' },
        regenerateToken: () => this.regenerateToken(),
        models: () => models,
        miniLm: () => miniLm,
        retryMiniLm: () => this.applyEmbeddings(),
        vaultPath: () => this.vaultPath(),
      }),
    );

    if (this.safeMode) {
      this.status({ state: 'safe' });
      new Notice('Lithos started in safe mode: its last start stopped while indexing. Nothing is indexed and the bridge is off until you run "Leave safe mode".', 0);
    } else {
      this.status({ state: 'starting' });
    }
    // Before layout-ready Obsidian replays a 'create' for every file; the engine's own scan covers those.
    this.app.workspace.onLayoutReady(() => void this.startWhenResolved());
  }

  override onunload(): void {
    this.unloaded = true;
    this.api.stop();
    this.models?.cancel();
    this.miniLm?.stop();
    // Obsidian does not await onunload: the bridge stops and the engine closes in the background.
    void this.bridge?.stop().catch((err: unknown) => this.logger.error('stopping the bridge failed', { error: asLithosError(err).toJSON() }));
    void this.session?.close();
    // Unloading is not a crash: the next start must not come up in safe mode.
    if (!this.safeMode) void this.file?.clearIndexing().catch(() => undefined);
    this.changes.clear();
  }

  // ── start-up ───────────────────────────────────────────────────────────

  private makeSession(): EngineSession {
    return new EngineSession({
      app: this.app,
      // Looked at on desktop when the memory opens (not in onload: it reads the disk); elsewhere the platforms
      // whose vault disks ignore case (Android: shared storage).
      caseInsensitive: () => vaultIgnoresCase(this.vaultPath(), Platform.isMacOS || Platform.isWin || Platform.isIosApp || Platform.isAndroidApp),
      registerEvent: (ref) => this.registerEvent(ref),
      logger: this.logger,
      status: (s) => this.status(s),
      changed: (what) => this.changes.emit(what),
      notify: (m) => this.notify(m),
      callouts: () => this.currentSettings().callouts,
      deviceName: obsidianDeviceName(Platform, desktopHostname(Platform.isDesktopApp)),
      devicesStatus: (line) => this.indexStatus?.showDevices(line),
      // requestUrl: no page CORS rules, on desktop and mobile alike.
      post: async (url, body, headers) => ({ status: (await requestUrl({ url, method: 'POST', body, headers, throw: false })).status }),
      git: () => obsidianGitSource(this.app.vault.adapter as GitAdapter, Platform.isDesktopApp),
      opened: (controls) => this.engineOpened(controls),
      indexingStarted: () => this.file?.markIndexing(new Date()) ?? Promise.resolve(),
      indexingEnded: () => this.file?.clearIndexing() ?? Promise.resolve(),
    });
  }

  private async startWhenResolved(): Promise<void> {
    if (this.safeMode) return;
    await whenMetadataResolved(this.app.metadataCache, METADATA_FALLBACK_MS, {
      set: (fn, ms) => window.setTimeout(fn, ms),
      clear: (t) => window.clearTimeout(t as number),
    }, (ref) => this.registerEvent(ref));
    if (this.unloaded) return;
    await this.session?.start();
    // After the first scan: the background embedding does not compete with it for the status bar.
    await this.applyEmbeddings();
  }

  /** Adds or removes the all-MiniLM-L6-v2 space as Settings → Embeddings says. */
  private applyEmbeddings(): Promise<void> {
    const e = this.currentSettings().embeddings;
    return this.miniLm?.apply(this.session?.controls ?? null, { on: e.model === 'minilm-l6-v2', root: e.modelFolder }) ?? Promise.resolve();
  }

  private engineOpened(controls: EngineControls): void {
    this.api.attach(controls.events);
    applyOpeningSettings(controls, this.currentSettings(), this.bridge, Platform.isDesktopApp);
    if (this.file) void moveLegacyAgentTools(controls.policy, this.file, this.logger);
  }

  // ── settings ───────────────────────────────────────────────────────────

  currentSettings(): LithosSettings {
    if (!this.file) throw new Error('Lithos settings are read before the plugin loaded them.');
    return this.file.data.settings;
  }

  /** Changes, saves and applies settings at once: the bridge, schedules and callouts follow without a restart. */
  async changeSettings(fn: (s: LithosSettings) => void): Promise<void> {
    if (!this.file) return;
    const before = JSON.parse(JSON.stringify(this.currentSettings())) as LithosSettings;
    await this.file.update((d) => fn(d.settings));
    const targets = { engine: this.session?.controls ?? null, safeMode: this.safeMode, bridge: this.bridge, applyEmbeddings: () => this.applyEmbeddings(), notify: (m: string) => this.notify(m) };
    await applySettingsActions(settingsActions(before, this.currentSettings()), targets);
    this.changes.emit('settings');
  }

  // ── status bar ─────────────────────────────────────────────────────────

  status(s: LithosStatus): void {
    this.lastStatus = s;
    this.indexStatus?.show(s);
  }

  // ── CommandHost ────────────────────────────────────────────────────────

  requireControls(): EngineControls | null {
    const controls = this.session?.controls ?? null;
    if (!controls) {
      this.notify(this.safeMode ? 'Lithos is in safe mode: run "Leave safe mode" first.' : (this.session?.error ?? 'Lithos is still opening its memory.'));
    }
    return controls;
  }

  rebuildIndex(): Promise<void> {
    return this.session?.reconcile() ?? Promise.resolve();
  }

  inSafeMode(): boolean {
    return this.safeMode;
  }

  async leaveSafeMode(): Promise<void> {
    this.safeMode = false;
    await this.file?.clearIndexing();
    this.status({ state: 'starting' });
    this.notify('Lithos left safe mode: opening and indexing the memory.');
    await this.startWhenResolved();
  }

  async startBridge(): Promise<void> {
    if (this.safeMode) return this.notify('Lithos is in safe mode: the bridge stays off until you run "Leave safe mode".');
    if (!this.requireControls()) return;
    await this.changeSettings((s) => {
      s.bridge.enabled = true;
    });
    // Already enabled but stopped (an earlier failure): try again.
    await this.bridge?.apply(true, this.currentSettings().bridge.port);
  }

  async stopBridge(): Promise<void> {
    await this.changeSettings((s) => {
      s.bridge.enabled = false;
    });
    await this.bridge?.stop();
  }

  async regenerateToken(): Promise<void> {
    await this.bridge?.regenerateToken();
  }

  vaultPath(): string | null {
    const adapter = this.app.vault.adapter as { getBasePath?: () => string };
    return Platform.isDesktopApp && typeof adapter.getBasePath === 'function' ? adapter.getBasePath() : null;
  }

  notify(message: string): void {
    new Notice(message);
  }

  showReady(): void {
    const engine = this.session?.engine;
    if (engine) this.session?.showReady(engine);
  }

  async copy(text: string): Promise<void> {
    await navigator.clipboard.writeText(text);
  }

  openSearch(): void {
    const memory = this.requireControls() && this.session?.memory;
    if (!memory) return;
    new SearchModal(this.app, (q) => memory.notes.search(q, { k: 20 }), (err) => this.logger.error('search failed', { error: asLithosError(err).toJSON() })).open();
  }
}

