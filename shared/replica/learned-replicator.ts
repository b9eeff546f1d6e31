import type { Clock, Logger, SyncFolderPort } from '../ports';
import type { MemoryStore } from '../stores/memory-store';
import type { MemoryOp } from '../stores/memory-types';
import { NodeKeys } from './codec';
import { CODECS } from './codecs';
import { Replicator, type SyncReport, type ThisDevice } from './replicator';

/** The replicator of memory.sqlite's learned rows (the main stream of a device's folder). */
export function learnedReplicator(memory: MemoryStore, folder: SyncFolderPort, device: ThisDevice, clock: Clock, logger: Logger, onRound?: (r: SyncReport) => void | Promise<void>): Replicator<MemoryOp> {
  return new Replicator({ host: memory, codecs: CODECS, nodes: new NodeKeys(memory.nodes), folder, device, clock, logger, onRound });
}
