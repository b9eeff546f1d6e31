/**
 * The plugin's own settings, kept in Obsidian's plugin data (`data.json` beside main.js, loadData/saveData).
 * What agents may see and where their writes become proposals is NOT here: that is the vault's policy
 * (`.lithos/policy.json`, services.governance.policy), shared with the CLI and `lithos mcp`, and edited in place
 * by the settings tab.
 *
 * Every field has a default; `migrateData` turns whatever was saved (older versions, hand edits, nothing)
 * into a complete, valid LithosData, dropping what it does not understand, so a bad data.json never stops
 * the plugin from loading.
 */
import { DEFAULT_K, MAX_K } from '../shared/retrieval/constants';
import { INTENTS, QUERY_CLASSES, type Intent, type KnownQueryClass } from '../shared/retrieval/types';
import { CONSOLIDATION_INTERVAL_MS } from '../shared/learning/consolidator';
import { DECAY } from '../shared/learning/constants';
import type { AgentTools } from '../shared/governance/policy';
import { normalizeVaultPath } from '../shared/model/paths';

export const DEFAULT_BRIDGE_PORT = 27_183;
const HOUR_MS = 3600 * 1000;

export interface BridgeSettings {
  /**
   * Run the websocket host agents' bridges connect to (desktop only). On by default: while Obsidian holds the
   * vault, `lithos mcp` can only reach it through this host (loopback, token-checked).
   */
  enabled: boolean;
  /** Preferred port on 127.0.0.1; when taken the OS picks one (bridge.json names the real one). */
  port: number;
  /** Path of the built bridge (`dist/bridge/cli.js`) for the copied MCP client config; empty: `lithos` on PATH. */
  cliPath: string;
}

export interface RetrievalSettings {
  /** How many notes the person's retrievals return (max_context_nodes), 1..MAX_K. */
  maxNodes: number;
  defaultIntent: Intent | null;
  defaultClass: KnownQueryClass | null;
}

export interface LearningSettings {
  /** Scheduled consolidation, hours between runs. */
  consolidationIntervalHours: number;
  /** Decay of unused strengths and rule/agent edges, hours between runs. */
  decayIntervalHours: number;
}

/** `hashing`: the offline embedder, nothing to download. `minilm-l6-v2`: all-MiniLM-L6-v2, downloaded into modelFolder. */
export const EMBEDDING_MODELS = ['hashing', 'minilm-l6-v2'] as const;
export type EmbeddingModel = (typeof EMBEDDING_MODELS)[number];
/** The bridge's default model_dir (`models` under `.lithos/`), so `lithos reembed` finds a model downloaded here. */
export const DEFAULT_MODEL_FOLDER = '.lithos/models';

export interface EmbeddingSettings {
  model: EmbeddingModel;
  /** Vault-relative folder models are stored under, as `<modelFolder>/<modelId>/`. */
  modelFolder: string;
}

export interface LithosSettings {
  bridge: BridgeSettings;
  embeddings: EmbeddingSettings;
  retrieval: RetrievalSettings;
  learning: LearningSettings;
  /** Managed conflict/status callouts written into notes. */
  callouts: boolean;
}

/** What data.json holds: the settings, and the crash-loop guard's marker. */
export interface LithosData {
  version: 1;
  settings: LithosSettings;
  /** Set (ISO time) when indexing starts, cleared when it ends: present at start-up means the last start died indexing. */
  indexingSince: string | null;
  /**
   * Read-only and tools switched off, as versions before 0.x kept them here (settings.bridge.readOnly,
   * disabledTools). They are the vault policy's `agent_tools` now (so headless `lithos mcp` honours them);
   * the plugin moves a saved value there once the memory is open, then clears this.
   */
  legacyAgentTools: AgentTools | null;
}

export const DEFAULT_SETTINGS: Readonly<LithosSettings> = Object.freeze({
  bridge: Object.freeze({ enabled: true, port: DEFAULT_BRIDGE_PORT, cliPath: '' }),
  embeddings: Object.freeze({ model: 'hashing', modelFolder: DEFAULT_MODEL_FOLDER }),
  retrieval: Object.freeze({ maxNodes: DEFAULT_K, defaultIntent: null, defaultClass: null }),
  learning: Object.freeze({ consolidationIntervalHours: CONSOLIDATION_INTERVAL_MS / HOUR_MS, decayIntervalHours: DECAY.interval_ms / HOUR_MS }),
  callouts: true,
});

/** A fresh, mutable copy of the defaults. */
export function defaultSettings(): LithosSettings {
  return migrateSettings({});
}

type Raw = Record<string, unknown>;

function obj(v: unknown): Raw {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {};
}
function bool(v: unknown, d: boolean): boolean {
  return typeof v === 'boolean' ? v : d;
}
function int(v: unknown, d: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : d;
}
function num(v: unknown, d: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : d;
}
function oneOf<T extends string>(v: unknown, all: readonly T[], d: T | null): T | null {
  return typeof v === 'string' && (all as readonly string[]).includes(v) ? (v as T) : d;
}
/** Trimmed, de-duplicated, non-empty strings (folder paths lose leading/trailing slashes). */
export function cleanList(v: unknown, folders = false): string[] {
  if (!Array.isArray(v)) return [];
  const out = v.filter((s): s is string => typeof s === 'string').map((s) => (folders ? s.trim().replace(/^\/+|\/+$/g, '') : s.trim()));
  return [...new Set(out.filter((s) => s !== ''))];
}

/** A vault folder as typed (leading '/' meaning the vault root, as for hidden folders), normalised; a drive path or one climbing out of the vault is null. */
export function vaultFolder(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  try {
    return normalizeVaultPath(v.trim().replace(/^\/+|\/+$/g, ''));
  } catch {
    return null;
  }
}

/** Any saved value → complete settings; unknown or invalid fields take their defaults. */
export function migrateSettings(raw: unknown): LithosSettings {
  const d = DEFAULT_SETTINGS;
  const s = obj(raw);
  const b = obj(s.bridge);
  const r = obj(s.retrieval);
  const l = obj(s.learning);
  const e = obj(s.embeddings);
  return {
    bridge: {
      enabled: bool(b.enabled, d.bridge.enabled),
      port: int(b.port, d.bridge.port, 0, 65_535),
      cliPath: typeof b.cliPath === 'string' ? b.cliPath.trim() : d.bridge.cliPath,
    },
    embeddings: {
      model: oneOf(e.model, EMBEDDING_MODELS, null) ?? d.embeddings.model,
      modelFolder: vaultFolder(e.modelFolder) ?? d.embeddings.modelFolder,
    },
    retrieval: {
      maxNodes: int(r.maxNodes, d.retrieval.maxNodes, 1, MAX_K),
      defaultIntent: oneOf(r.defaultIntent, INTENTS, null),
      defaultClass: oneOf(r.defaultClass, QUERY_CLASSES, null),
    },
    learning: {
      consolidationIntervalHours: num(l.consolidationIntervalHours, d.learning.consolidationIntervalHours, 0.25, 24 * 30),
      decayIntervalHours: num(l.decayIntervalHours, d.learning.decayIntervalHours, 0.25, 24 * 30),
    },
    callouts: bool(s.callouts, d.callouts),
  };
}

/** A data.json's own legacyAgentTools, or the old bridge settings when they said anything; else null. */
function legacyAgentTools(o: Raw): AgentTools | null {
  const kept = obj(o.legacyAgentTools);
  const b = obj(obj(o.settings).bridge);
  const readOnly = bool(kept.read_only, false) || bool(b.readOnly, false);
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
  const disabled = cleanList([...list(kept.disabled), ...list(b.disabledTools)]);
  return readOnly || disabled.length > 0 ? { read_only: readOnly, disabled } : null;
}

/** Any saved data.json (null when there is none) → complete LithosData. */
export function migrateData(raw: unknown): LithosData {
  const o = obj(raw);
  return {
    version: 1,
    settings: migrateSettings(o.settings),
    indexingSince: typeof o.indexingSince === 'string' ? o.indexingSince : null,
    legacyAgentTools: legacyAgentTools(o),
  };
}

/** The two Plugin methods that persist data.json. */
export interface DataStore {
  loadData(): Promise<unknown>;
  saveData(data: unknown): Promise<void>;
}

export async function loadLithosData(store: DataStore): Promise<LithosData> {
  return migrateData(await store.loadData());
}

export async function saveLithosData(store: DataStore, data: LithosData): Promise<void> {
  await store.saveData(data);
}
