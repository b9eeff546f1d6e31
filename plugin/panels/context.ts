import type { MemorySession } from '../../shared/session/memory-session';
import type { HumanTools } from './human-tools';

/** What changed, for panels that only care about some changes. */
export type PanelChange = 'engine' | 'index' | 'settings';

/**
 * The fields of the plugin's settings the panels read. Kept as a structural subset so a panel depends only
 * on what it uses; the plugin passes its full settings object.
 */
export interface PanelSettings {
  /** Retrieve panel defaults. */
  retrieval?: { max_nodes?: number; default_query_class?: string; default_intent?: string | null };
}

/**
 * How the panels reach the plugin (main.ts builds it). They act as the person: reads and edits through the
 * person's memory session, the rest through the lithos_* tools. The session is null while the memory opens
 * or after a failure; panels show why and wait for `onChange('engine')`.
 */
export interface PanelContext {
  memory(): MemorySession | null;
  /** The lithos_* tools as the person; call them only while `memory()` is there. */
  readonly tools: HumanTools;
  /** The memory's clock (claims count down and "… ago" reads by it). */
  now(): number;
  settings(): PanelSettings;
  /**
   * `cb` runs when the engine becomes ready (or goes away), the index changed (a note added, edited or
   * removed, a learning write) or the settings changed. Returns the unsubscribe function; views call it
   * when they close.
   */
  onChange(cb: (what: PanelChange) => void): () => void;
  /** Why there is no memory, shown in place of a panel's content; null while it is simply still opening. */
  engineError?(): string | null;
}
