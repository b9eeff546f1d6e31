/**
 * The index's own state, as lithos_stats shows it: figures about the engine, not about any note, so every
 * viewer gets the same answer.
 */
import type { SessionEngine } from './session-engine';

export class IndexRoom {
  constructor(private readonly engine: Pick<SessionEngine, 'activeSpaces' | 'stats'>) {}

  /** The embedding spaces searches and retrieval use now, primary first. */
  spaces(): string[] {
    return this.engine.activeSpaces();
  }

  /** Vault file events seen but not yet indexed. */
  pendingEvents(): number {
    const n = this.engine.stats().pending_events;
    return typeof n === 'number' ? n : 0;
  }
}
