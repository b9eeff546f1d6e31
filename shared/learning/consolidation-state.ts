/**
 * What consolidation has already done, so running it again on the same material changes nothing:
 * `.lithos/consolidation.json`, rewritten atomically after each run.
 *
 * - `units[key].pairs`: edge pairs already reinforced for that unit (a task, or an agent's task-less day);
 * - `hypothesis_tasks[node]`: tasks whose outcome cited that hypothesis (promotion evidence);
 * - `last_run`: ms of the last completed run.
 * An unreadable file is logged and treated as empty: at worst a unit's pairs are reinforced once more.
 */
import type { BlobStore, Logger } from '../ports';

export const CONSOLIDATION_STATE_FILE = 'consolidation.json';

export interface ConsolidationState {
  version: 1;
  units: Record<string, { pairs: string[]; at: number }>;
  hypothesis_tasks: Record<string, string[]>;
  last_run: number | null;
}

export function emptyState(): ConsolidationState {
  return { version: 1, units: {}, hypothesis_tasks: {}, last_run: null };
}

export async function loadState(blobs: BlobStore, logger: Logger): Promise<ConsolidationState> {
  const bytes = await blobs.read(CONSOLIDATION_STATE_FILE);
  if (!bytes) return emptyState();
  try {
    const v = JSON.parse(new TextDecoder().decode(bytes)) as Partial<ConsolidationState>;
    if (v && v.version === 1 && typeof v.units === 'object' && typeof v.hypothesis_tasks === 'object') {
      return { version: 1, units: v.units ?? {}, hypothesis_tasks: v.hypothesis_tasks ?? {}, last_run: typeof v.last_run === 'number' ? v.last_run : null };
    }
  } catch {
    // fall through
  }
  logger.warn(`${CONSOLIDATION_STATE_FILE} is unreadable; starting consolidation state afresh`);
  return emptyState();
}

export async function saveState(blobs: BlobStore, state: ConsolidationState): Promise<void> {
  await blobs.writeAtomic(CONSOLIDATION_STATE_FILE, new TextEncoder().encode(JSON.stringify(state)));
}

/** A pair's key, smaller id first. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
