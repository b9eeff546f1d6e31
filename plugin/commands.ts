import type { Plugin } from 'obsidian';
import { asLithosError } from '../shared/errors';
import { HashingEmbedder } from '../shared/index/embedders/hashing-embedder';
import type { Embedder } from '../shared/ports';
import type { EngineControls } from './engine-controls';
import { mcpClientConfig, type McpClient } from './mcp-config';
import type { LithosSettings } from './settings';
import type { LithosStatus } from './status-bar';
import { syncNoticeText } from './devices-status';

/** What the commands need from the plugin (main.ts implements it). */
export interface CommandHost {
  /** The open engine's controls (its jobs and spaces), or null after telling the person why there is none. */
  requireControls(): EngineControls | null;
  rebuildIndex(): Promise<void>;
  inSafeMode(): boolean;
  leaveSafeMode(): Promise<void>;
  startBridge(): Promise<void>;
  stopBridge(): Promise<void>;
  regenerateToken(): Promise<void>;
  /** Absolute vault folder, or null when the vault is not a folder on disk (mobile). */
  vaultPath(): string | null;
  currentSettings(): LithosSettings;
  notify(message: string): void;
  status(s: LithosStatus): void;
  showReady(): void;
  copy(text: string): Promise<void>;
  openSearch(): void;
}

/** The space the plugin always has; all-MiniLM-L6-v2 comes and goes with Settings → Embeddings (minilm/minilm-switch.ts). */
export function pluginSpaces(): Embedder[] {
  return [new HashingEmbedder()];
}

interface CoreCommand {
  id: string;
  name: string;
  run(host: CommandHost): Promise<void> | void;
}

async function copyConfig(host: CommandHost, client: McpClient, label: string): Promise<void> {
  const vault = host.vaultPath();
  if (!vault) return host.notify('Lithos: the MCP config needs a vault folder on disk (Obsidian desktop).');
  await host.copy(mcpClientConfig(client, vault, host.currentSettings().bridge.cliPath));
  host.notify(`Lithos: the ${label} MCP config for this vault is on the clipboard.`);
}

/** Stable ids (Obsidian prefixes them with `lithos-memory:`); docs/plugin.md's command table lists them. */
export const CORE_COMMANDS: readonly CoreCommand[] = [
  { id: 'search', name: 'Search memory', run: (h) => h.openSearch() },
  {
    id: 'rebuild-index',
    name: 'Rebuild index (rescan vault)',
    run: async (h) => {
      if (h.inSafeMode()) return h.notify('Lithos is in safe mode: run "Leave safe mode" first.');
      if (h.requireControls()) await h.rebuildIndex();
    },
  },
  {
    id: 'consolidate-now',
    name: 'Consolidate memory now',
    run: async (h) => {
      const controls = h.requireControls();
      if (!controls) return;
      const r = await controls.consolidator.run({ actor: { kind: 'human', id: null } });
      h.notify(
        `Lithos consolidated ${r.units.length} working ${r.units.length === 1 ? 'memory' : 'memories'}: ${r.edges_reinforced} edges reinforced, ${r.edges_created} created, ` +
          `${r.hypotheses_promoted.length} hypotheses promoted, ${r.concepts_created.length} concepts created, ${r.summaries_refreshed.length} summaries refreshed.`,
      );
    },
  },
  {
    id: 'reembed-space',
    name: 'Re-embed every note into the offline space',
    run: async (h) => {
      const controls = h.requireControls();
      if (!controls) return;
      const [space] = pluginSpaces();
      const n = await controls.addSpace(space, (done, total) => h.status({ state: 'progress', phase: 'index', done, total }));
      h.showReady();
      h.notify(`Lithos re-embedded ${n} ${n === 1 ? 'note' : 'notes'} into ${space.spaceId}.`);
    },
  },
  {
    id: 'verify-audit',
    name: 'Verify the audit log',
    run: async (h) => {
      const controls = h.requireControls();
      if (!controls) return;
      const r = await controls.audit.verify();
      if (r.ok) return h.notify(`Lithos audit log intact: ${r.entries} ${r.entries === 1 ? 'entry' : 'entries'}${r.head ? `, newest #${r.head.seq}` : ''}.`);
      const first = r.problems[0];
      h.notify(`Lithos audit log BROKEN (${r.problems.length} ${r.problems.length === 1 ? 'problem' : 'problems'}): ${first ? `${first.kind}${first.line ? ` at line ${first.line}` : ''}: ${first.message}` : ''}`);
    },
  },
  {
    id: 'sync-devices',
    name: 'Sync learning with other devices now',
    run: async (h) => {
      const controls = h.requireControls();
      if (!controls) return;
      const round = await controls.devices.sync();
      h.notify(syncNoticeText(round, controls.devices.report()));
    },
  },
  { id: 'copy-mcp-config-claude-desktop', name: 'Copy MCP config for Claude Desktop', run: (h) => copyConfig(h, 'claude-desktop', 'Claude Desktop') },
  { id: 'copy-mcp-config-claude-code', name: 'Copy MCP config for Claude Code (claude mcp add …)', run: (h) => copyConfig(h, 'claude-code', 'Claude Code') },
  { id: 'start-bridge', name: 'Start the agents bridge', run: (h) => h.startBridge() },
  { id: 'stop-bridge', name: 'Stop the agents bridge', run: (h) => h.stopBridge() },
  {
    id: 'regenerate-bridge-token',
    name: 'Regenerate the bridge token (disconnects agents)',
    run: async (h) => {
      await h.regenerateToken();
      h.notify('Lithos: new bridge token; connected agents reconnect with it.');
    },
  },
  {
    id: 'leave-safe-mode',
    name: 'Leave safe mode (open and index the memory)',
    run: async (h) => {
      if (!h.inSafeMode()) return h.notify('Lithos is not in safe mode.');
      await h.leaveSafeMode();
    },
  },
];

/** Registers the commands; a failing command tells the person why (a Notice), never fails silently. */
export function registerCoreCommands(plugin: Plugin, host: CommandHost): void {
  for (const c of CORE_COMMANDS) {
    plugin.addCommand({
      id: c.id,
      name: c.name,
      callback: () => {
        const failed = (err: unknown): void => host.notify(`Lithos: ${c.name.toLowerCase()} failed: ${asLithosError(err).message}`);
        try {
          void c.run(host)?.catch(failed);
        } catch (err) {
          failed(err);
        }
      },
    });
  }
}
