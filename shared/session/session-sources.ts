/**
 * What a memory session is given: the engine's services, and the two things only the composition knows (its
 * logger, and the vault events its sync has not handled yet). The session applies the viewer's scope over
 * these; nothing else in shared/ sees them unscoped.
 */
import type { Logger } from '../ports';
import type { Services } from './services';

export interface SessionSources {
  readonly services: Services;
  /** Where an internal job's failure the caller need not see is logged (consolidation after a task). */
  readonly logger: Logger;
  /** Vault file events seen but not yet indexed. */
  pendingEvents(): number;
}
