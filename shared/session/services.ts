import type { DeviceSync } from '../replica/device-sync';
/**
 * The engine's services, each owning one concern and built once by MemoryEngine.open: what a scoped
 * session and the composition roots work through (docs/architecture.md).
 */
import type { Clock } from '../ports';
import type { CoordinationStore } from '../coordination/coordination-store';
import type { GovernanceService } from '../governance/governance-service';
import type { NotesService } from '../vault/notes-service';
import type { SearchService } from '../vault/search-service';
import type { RetrievalService } from '../retrieval/retrieval-service';
import type { LearningService } from '../learning/learning-service';
import type { ConflictService } from '../conflicts/conflicts';

export interface Services {
  /** Lookup, links, parse and every audited write. */
  readonly notes: NotesService;
  /** Keyword/vector search and the embedding spaces. */
  readonly search: SearchService;
  /** retrieve, the receipt log, the interpreter. */
  readonly retrieval: RetrievalService;
  /** Memory's learned signals: feedback, decay, consolidation, quarantine, working memory. */
  readonly learning: LearningService;
  /** Conflict objects, rule detection, managed callouts. */
  readonly conflicts: ConflictService;
  /** Audit, policy, agent keys, proposals, viewers. */
  readonly governance: GovernanceService;
  /** Agents, tasks, aspect claims, findings (coordination.sqlite). */
  readonly coordination: CoordinationStore;
  /** Learned state exchanged with this person's other devices (replica/device-sync.ts). */
  readonly devices: DeviceSync;
  readonly clock: Clock;
}
