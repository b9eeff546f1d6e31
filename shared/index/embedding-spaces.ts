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

/**
 * The space learned from the vault's own notes (embedders/vault-space.ts, kept by vault/vault-space-keeper.ts),
 * offered beside the hashing default, not instead of it: by the cross-validated dev figures it did not beat
 * hashing (docs/embeddings.md, "A space learned from the vault").
 */
export const VAULT_LEARNED_SPACE = {
  idPrefix: 'vault-ppmi-',
  semantic: true,
  description:
    'semantic: learned from this vault — words that share contexts in your notes land close (car ↔ automobile once both sit next to "engine" or "parked"); ' +
    'words the vault has not used at least twice add nothing, and a small vault teaches little',
} as const;
