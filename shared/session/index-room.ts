/**
 * The index's own state, as lithos_stats shows it: figures about the engine, not about any note, so every
 * viewer gets the same answer.
 */
import type { SearchService } from '../vault/search-service';

export class IndexRoom {
  constructor(
    private readonly search: Pick<SearchService, 'activeSpaces'>,
    private readonly pending: () => number,
  ) {}

  /** The embedding spaces searches and retrieval use now, primary first. */
  spaces(): string[] {
    return this.search.activeSpaces();
  }

  /** Vault file events seen but not yet indexed. */
  pendingEvents(): number {
    return this.pending();
  }
}
