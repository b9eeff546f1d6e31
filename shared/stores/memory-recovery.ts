import type { Logger } from '../ports';
import { MEMORY_SCHEMA } from './schema';
import type { OpenDeps } from './sqlite';
import { applyOp } from './memory-rows';
import type { MemoryOp } from './memory-types';
import { recoverStore, type JournaledFiles, type RecoveredStore } from './store-recovery';

export const MEMORY_JOURNAL = 'memory.journal';
export const MEMORY_PREVIOUS = 'memory.sqlite.prev';

export const MEMORY_FILES: JournaledFiles<MemoryOp> = {
  schema: MEMORY_SCHEMA,
  journal: MEMORY_JOURNAL,
  previous: MEMORY_PREVIOUS,
  unsaved: `${MEMORY_JOURNAL}.unsaved`,
  apply: applyOp,
  holds: 'learned edges, stats and conflicts',
};

export interface RecoveredMemory extends RecoveredStore<MemoryOp> {
  /** The store must be saved again even with nothing replayed (an older copy was accepted: see below). */
  resave: boolean;
}

/**
 * Opens memory.sqlite the way a restart after a crash needs (store-recovery.ts). An older copy than the
 * one last saved (a backup restored, a sync from another machine) is accepted with the loss reported, and
 * saved again at once, so the warning is given once: the accepted copy is then the last saved.
 */
export async function recoverMemory(deps: OpenDeps & { logger: Logger }): Promise<RecoveredMemory> {
  const r = await recoverStore(deps, MEMORY_FILES);
  return { ...r, resave: r.base === 'current' && (r.savedSeq ?? 0) > r.baseSeq };
}
