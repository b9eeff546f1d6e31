import { recoverStore, type JournaledFiles } from '../stores/store-recovery';
import { COORDINATION_JOURNAL, COORDINATION_PREVIOUS, COORDINATION_SCHEMA } from './coordination-schema';
import { applyCoordinationOp } from './coordination-rows';
import type { CoordinationOp } from './coordination-types';

/** coordination.sqlite is recovered as memory.sqlite is (stores/store-recovery.ts). */
export const COORDINATION_FILES: JournaledFiles<CoordinationOp> = {
  schema: COORDINATION_SCHEMA,
  journal: COORDINATION_JOURNAL,
  previous: COORDINATION_PREVIOUS,
  unsaved: `${COORDINATION_JOURNAL}.unsaved`,
  apply: applyCoordinationOp,
  holds: 'agents, tasks, claims and findings',
};

export const recoverCoordination = (deps: Parameters<typeof recoverStore>[0]) => recoverStore(deps, COORDINATION_FILES);
