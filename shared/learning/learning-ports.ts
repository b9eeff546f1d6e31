/**
 * What the learning layer reads and changes, as narrow ports: LearningService holds one LearningPorts,
 * and each function (feedback.ts, decay.ts, consolidate.ts, …) takes a Pick of it naming only what it uses.
 */
import type { BlobStore, Clock, Logger } from '../ports';
import type { MemoryStore } from '../stores/memory-store';
import type { CoordinationStore } from '../coordination/coordination-store';
import type { AuditLog } from '../governance/audit';
import type { GovernanceService } from '../governance/governance-service';
import type { PolicyStore } from '../governance/policy';
import type { NotesService } from '../vault/notes-service';
import type { SearchService } from '../vault/search-service';
import type { ReceiptLog } from '../retrieval/receipts';
import type { LearningStore } from './learning-store';

export interface LearningPorts {
  notes: Pick<NotesService, 'note' | 'notes' | 'links' | 'backlinks' | 'parse' | 'updateFrontmatter' | 'writeNote'>;
  /** Note vectors (concept density), text-to-note similarity (support by the output), note text (term associations). */
  search: Pick<SearchService, 'noteVector' | 'textSimilarity' | 'noteText'>;
  /** The retrievals learning learns from (retrieval/receipts.ts). */
  receipts: Pick<ReceiptLog, 'query'>;
  memory: Pick<MemoryStore, 'batch' | 'stats' | 'edges' | 'coactivation' | 'learned' | 'phases' | 'events'>;
  /** `.lithos/learning.json`: the vault's overrides of the learning constants (learning-store.ts). */
  tunables: Pick<LearningStore, 'get' | 'refresh'>;
  audit: Pick<AuditLog, 'append'>;
  policy: Pick<PolicyStore, 'get'>;
  /** Whether text written into one note may name or quote another (concept lists, summaries); proposals (reflection). */
  governance: Pick<GovernanceService, 'readersMaySee' | 'keysInUse' | 'proposals'>;
  /** Tasks, their members, outcomes and findings (working memory, consolidation units, reflection). */
  coordination: Pick<CoordinationStore, 'task' | 'agent' | 'tasksOf' | 'outcome' | 'tasks' | 'findings'>;
  clock: Clock;
  /** `.lithos/` files: the consolidation state. */
  blobs: BlobStore;
  logger: Logger;
  /** The conflicts layer's managed callouts: a note just quarantined gets its status callout at once. */
  callouts: { syncCallouts(ref: string): Promise<boolean> };
}
