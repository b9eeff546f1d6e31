import { LithosError } from '../errors';
import type { Embedder } from '../ports';

/**
 * The embedding spaces in use, primary first. The indexer, the queries and retrieval read `list()` each
 * time, so a space added or removed applies to the next note indexed and the next search.
 */
export class EmbeddingSpaces {
  private readonly embedders: Embedder[];

  constructor(initial: readonly Embedder[]) {
    this.embedders = [...initial];
  }

  list(): readonly Embedder[] {
    return this.embedders;
  }

  primary(): Embedder {
    return this.embedders[0];
  }

  ids(): string[] {
    return this.embedders.map((e) => e.spaceId);
  }

  /** Adds a space (a space id already in use keeps its embedder). */
  add(space: Embedder): void {
    if (!this.embedders.some((e) => e.spaceId === space.spaceId)) this.embedders.push(space);
  }

  /** Stops using a space; the primary cannot be removed. Returns whether it was in use. */
  remove(spaceId: string): boolean {
    const i = this.embedders.findIndex((e) => e.spaceId === spaceId);
    if (i === 0) throw new LithosError('invalid_argument', `"${spaceId}" is the primary embedding space and cannot be removed.`, { space: spaceId });
    if (i < 0) return false;
    this.embedders.splice(i, 1);
    return true;
  }
}
