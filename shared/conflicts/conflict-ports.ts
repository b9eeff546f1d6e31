/**
 * What the conflicts layer reads and changes, as narrow ports: ConflictService holds one ConflictPorts,
 * and each helper (detection.ts, callouts.ts, resolution-effects.ts) takes a Pick of it naming only what
 * it uses.
 */
import type { Clock, Logger, Timers } from '../ports';
import type { MemoryStore } from '../stores/memory-store';
import type { AuditLog } from '../governance/audit';
import type { GovernanceService } from '../governance/governance-service';
import type { PolicyStore } from '../governance/policy';
import type { NotesService } from '../vault/notes-service';
import type { SearchService } from '../vault/search-service';
import type { LearningStore } from '../learning/learning-store';

export interface ConflictPorts {
  notes: Pick<NotesService, 'note' | 'notes' | 'links' | 'backlinks' | 'parse' | 'updateFrontmatter' | 'editNoteText'>;
  /** Lexical neighbours, for rule detection's candidates. */
  search: Pick<SearchService, 'search'>;
  /** Conflicts are `contradicts` edges; a refuted note's stats; the policy mark of the callouts; target aliases. */
  memory: Pick<MemoryStore, 'edges' | 'stats' | 'learned' | 'targets'>;
  audit: Pick<AuditLog, 'append'>;
  policy: Pick<PolicyStore, 'get' | 'onChange'>;
  /** Whether a callout in one note may name another (governance/audience.ts). */
  governance: Pick<GovernanceService, 'readersMaySee' | 'keysInUse'>;
  /** The learning constants in force: a refuted note's priors stay within class_prior_cap. */
  tunables: Pick<LearningStore, 'get'>;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  /** Managed callouts in notes at open (default on; setCallouts changes it). */
  callouts: boolean;
  /** Throws once the engine is closed. */
  guard(): void;
}
