import { PluginSettingTab, Setting, type App, type Plugin } from 'obsidian';
import { asLithosError } from '../shared/errors';
import { INTENTS, QUERY_CLASSES, type Intent, type KnownQueryClass } from '../shared/retrieval/types';
import { MAX_K } from '../shared/retrieval/constants';
import type { BridgeState } from './bridge-control';
import { bridgeStatusTooltip } from './status-bar';
import { cleanList, type LithosSettings } from './settings';
import { embeddingSection } from './settings-embeddings';
import { learningSection } from './settings-learning';
import { agentToolsSetting } from './settings-agent-tools';
import { agentKeysSetting, type IssuedKey } from './settings-agent-keys';
import { flag, onCommit } from './settings-commit';
import type { ModelDownloads } from './model-downloads';
import type { MiniLmSwitch } from './minilm/minilm-switch';
import type { EngineControls } from './engine-controls';

export interface SettingsTabHost {
  settings(): LithosSettings;
  /** Changes, persists and applies at once. */
  save(fn: (s: LithosSettings) => void): Promise<void>;
  /** The open engine's configuration; null while the memory opens. */
  controls(): EngineControls | null;
  bridge(): BridgeState;
  regenerateToken(): Promise<void>;
  /** The all-MiniLM-L6-v2 download (lives on the plugin, so it outlasts the tab). */
  models(): ModelDownloads;
  /** all-MiniLM-L6-v2 in the plugin's engine: its state, followed by the Embeddings section. */
  miniLm(): MiniLmSwitch;
  /** Tries to load and add all-MiniLM-L6-v2 again (after a failure). */
  retryMiniLm(): Promise<void>;
  /** The vault's folder on disk (desktop), null on mobile. */
  vaultPath(): string | null;
}

/** A port the bridge can listen on (0: any free one), or why not. */
export function portProblem(v: string): string | null {
  return /^\s*\d+\s*$/.test(v) && Number(v) <= 65_535 ? null : 'A port number from 0 to 65535 (0: any free port).';
}

/** One entry per line (blank lines dropped). */
function lines(text: string): string[] {
  return text.split(/\r?\n/);
}

/**
 * Settings → Lithos Memory. Every control saves and applies without a restart (text fields when the edit is
 * committed: Enter or leaving the field, see settings-commit.ts); the write policy is
 * the vault's `.lithos/policy.json`, edited through the engine's policy store (audited), so the CLI and agents see it too.
 */
export class LithosSettingTab extends PluginSettingTab {
  private issuedKey: IssuedKey | null = null;

  constructor(
    app: App,
    plugin: Plugin,
    private readonly host: SettingsTabHost,
  ) {
    super(app, plugin);
  }

  /** The Embeddings section follows the model download and MiniLM state; a closed tab stops listening. */
  override hide(): void {
    // A field still being edited is committed (its `change` fires on blur), not lost with the closing tab.
    const active = this.containerEl.ownerDocument?.activeElement as (Element & { blur?: () => void }) | null | undefined;
    if (active && this.containerEl.contains(active)) active.blur?.();
    this.host.miniLm().follow(null);
    this.host.models().follow(null);
    this.issuedKey = null; // a new key is shown once, while the tab stays open
    super.hide();
  }

  override display(): void {
    const el = this.containerEl;
    el.empty();
    this.bridgeSection(el);
    embeddingSection(el, this.host, () => this.display());
    this.retrievalSection(el);
    learningSection(el, this.host);
    this.calloutsSection(el);
    this.writePolicySection(el);
  }

  /** Returned to the control's onChange, so whoever drives the control can wait for the change to apply. */
  private save(fn: (s: LithosSettings) => void): Promise<void> {
    return this.host.save(fn);
  }

  private bridgeSection(el: HTMLElement): void {
    const s = this.host.settings().bridge;
    new Setting(el).setName('Agents bridge').setHeading().setDesc(bridgeStatusTooltip(this.host.bridge()));
    new Setting(el)
      .setName('Enabled')
      .setDesc('Serve MCP agents (lithos mcp) through Obsidian on 127.0.0.1, token-protected. Desktop only.')
      .addToggle((t) => t.setValue(s.enabled).onChange((v) => this.save((x) => void (x.bridge.enabled = v))));
    new Setting(el)
      .setName('Port')
      .setDesc('Preferred port; when taken, a free one is used (.lithos/bridge.json names it).')
      .addText((t) => {
        t.setValue(String(s.port)).onChange((v) => flag(t, portProblem(v)));
        onCommit(t, (v) => (portProblem(v) ? flag(t, portProblem(v)) : this.save((x) => void (x.bridge.port = Number(v.trim())))));
      });
    new Setting(el)
      .setName('Regenerate token')
      .setDesc('A new .lithos/bridge-token; connected agents are disconnected and reconnect with it.')
      .addButton((b) => b.setButtonText('Regenerate').onClick(() => void this.host.regenerateToken()));
    agentToolsSetting(el, this.host.controls(), 'read-only');
    this.hiddenFolders(el);
    new Setting(el)
      .setName('Bridge command for MCP clients')
      .setDesc('Path of dist/bridge/cli.js, used by "Copy MCP config". Empty: the lithos command on your PATH (npm link).')
      .addText((t) => {
        t.setPlaceholder('/path/to/lithos-memory/dist/bridge/cli.js').setValue(s.cliPath);
        onCommit(t, (v) => this.save((x) => void (x.bridge.cliPath = v.trim())));
      });
    agentKeysSetting(el, this.host.controls(), this.issuedKey, (issued) => {
      this.issuedKey = issued;
      this.display();
    });
    agentToolsSetting(el, this.host.controls(), 'tools');
  }

  /** The vault policy's hidden_folders: the scope gate hides these notes from every agent, over the bridge and in `lithos mcp` alike. */
  private hiddenFolders(el: HTMLElement): void {
    const controls = this.host.controls();
    const setting = new Setting(el).setName('Hidden folders');
    if (!controls) {
      setting.setDesc('Open the memory first: hidden folders live in the vault policy (.lithos/policy.json).');
      return;
    }
    setting
      .setDesc('One vault folder per line. No agent sees the notes in these folders, whatever their scope; you still do.')
      .addTextArea((t) => {
        t.setValue(controls.policy.get().hidden_folders.join('\n'));
        onCommit(t, (v) =>
          controls.policy.set({ ...controls.policy.get(), hidden_folders: cleanList(lines(v), true) }).then(
            () => flag(t, null),
            (err: unknown) => flag(t, asLithosError(err).message),
          ),
        );
      });
  }

  private retrievalSection(el: HTMLElement): void {
    const r = this.host.settings().retrieval;
    new Setting(el).setName('Retrieval defaults').setHeading();
    new Setting(el)
      .setName('Max notes')
      .setDesc(`How many notes your retrievals return (1–${MAX_K}).`)
      .addText((t) => {
        const problem = (v: string): string | null => (/^\s*\d+\s*$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_K ? null : `A whole number from 1 to ${MAX_K}.`);
        t.setValue(String(r.maxNodes)).onChange((v) => flag(t, problem(v)));
        onCommit(t, (v) => (problem(v) ? flag(t, problem(v)) : this.save((x) => void (x.retrieval.maxNodes = Number(v.trim())))));
      });
    new Setting(el).setName('Default intent').addDropdown((d) => {
      d.addOption('', '(none)');
      for (const i of INTENTS) d.addOption(i, i);
      d.setValue(r.defaultIntent ?? '').onChange((v) => this.save((x) => void (x.retrieval.defaultIntent = v === '' ? null : (v as Intent))));
    });
    new Setting(el).setName('Default query class').addDropdown((d) => {
      d.addOption('', '(none)');
      for (const c of QUERY_CLASSES) d.addOption(c, c);
      d.setValue(r.defaultClass ?? '').onChange((v) => this.save((x) => void (x.retrieval.defaultClass = v === '' ? null : (v as KnownQueryClass))));
    });
  }

  private calloutsSection(el: HTMLElement): void {
    new Setting(el)
      .setName('Conflict and status callouts')
      .setDesc('Managed callout blocks in notes that are in a conflict or quarantined. Off removes them.')
      .addToggle((t) => t.setValue(this.host.settings().callouts).onChange((v) => this.save((x) => void (x.callouts = v))));
  }

  private writePolicySection(el: HTMLElement): void {
    new Setting(el).setName('Write policy').setHeading();
    const controls = this.host.controls();
    if (!controls) {
      new Setting(el).setDesc('Open the memory first: the write policy lives in the vault (.lithos/policy.json).');
      return;
    }
    new Setting(el)
      .setName('Agents propose, I confirm')
      .setDesc('Namespaces (one per line, patterns like decisions/** allowed) where agent writes become proposals you accept or reject.')
      .addTextArea((t) => {
        t.setValue(controls.policy.get().propose_namespaces.join('\n'));
        onCommit(t, (v) =>
          controls.policy.set({ ...controls.policy.get(), propose_namespaces: cleanList(lines(v)) }).then(
            () => flag(t, null),
            (err: unknown) => flag(t, asLithosError(err).message),
          ),
        );
      });
  }
}
