/**
 * Searching the vault's notes: keyword/vector search, a note's nearest notes, text-to-note similarity
 * (index/note-queries.ts), and the embedding spaces those use (index/embedding-spaces.ts).
 */
import type { Embedder } from '../ports';
import type { CacheStore } from '../stores/cache-store';
import type { SearchIndex } from '../index/search-index';
import type { EmbeddingSpaces } from '../index/embedding-spaces';
import { NoteQueries, type EngineSearchHit, type SearchOptions } from '../index/note-queries';
import type { NoteIndexer } from './note-indexer';

export interface SearchDeps {
  index: SearchIndex;
  indexer: Pick<NoteIndexer, 'byId' | 'embedAll'>;
  spaces: EmbeddingSpaces;
  /** Where each space's vectors are kept (a new space registers there). */
  cache: CacheStore;
  /** Throws once the engine is closed. */
  guard(): void;
}

export class SearchService {
  /** cache.sqlite: the note rows, chunks and vectors searches are answered from. */
  readonly cache: CacheStore;
  private readonly queries: NoteQueries;

  constructor(private readonly d: SearchDeps) {
    this.cache = d.cache;
    this.queries = new NoteQueries(d.index, d.indexer.byId, () => d.spaces.list());
  }

  /** `allow`: a per-note gate (the caller's scope) applied before ranking, so k counts only allowed notes. */
  search(query: string, opts: SearchOptions = {}): Promise<EngineSearchHit[]> {
    this.d.guard();
    return this.queries.search(query, opts);
  }

  /** Nearest notes to a note's own mean chunk vector in each active space, the note itself left out. */
  similar(id: string, opts: { k?: number; allow?: (id: string) => boolean } = {}): Promise<EngineSearchHit[]> {
    this.d.guard();
    return this.queries.similar(id, opts);
  }

  /** A note's mean chunk vector (unit length) in a space, the primary by default; null when it has none there. */
  noteVector(id: string, spaceId?: string): Float32Array | null {
    return spaceId === undefined ? this.queries.noteVector(id) : (this.d.index.noteVector(id, spaceId) ?? null);
  }

  /** Cosine between `text` and each note's mean vector in the primary space (notes without one are left out). */
  textSimilarity(ids: readonly string[], text: string): Promise<Map<string, number>> {
    this.d.guard();
    return this.queries.textSimilarity(ids, text);
  }

  /** The note's indexed text (its chunks, heading lines included); null when it is not indexed. */
  noteText(id: string): string | null {
    return this.d.index.noteText(id);
  }

  /** The active spaces, the primary first (read at each use, so a change applies to the next search). */
  embedders(): readonly Embedder[] {
    return this.d.spaces.list();
  }

  /** Embeds every note into `space` now and keeps it active (vectors from all active spaces are merged). */
  async addSpace(space: Embedder, onProgress?: (done: number, total: number) => void): Promise<number> {
    this.d.guard();
    this.d.spaces.add(space);
    this.d.cache.registerSpace(space.spaceId, space.dimensions);
    return this.d.indexer.embedAll(space, onProgress);
  }

  /**
   * Stops using a space that addSpace (or the open) made active: searches, retrieval and indexing leave it
   * out from now on. Its cached vectors stay, so adding it again embeds only what changed meanwhile. The
   * primary (first) space cannot be removed. Returns whether the space was active.
   */
  removeSpace(spaceId: string): boolean {
    return this.d.spaces.remove(spaceId);
  }

  activeSpaces(): string[] {
    return this.d.spaces.ids();
  }

  /** Embeds these notes in the primary space (their cached vectors lacked it). */
  embedPrimary(paths: string[]): Promise<number> {
    return this.d.indexer.embedAll(this.d.spaces.primary(), undefined, paths);
  }
}
