/**
 * The engine's direct index queries — keyword/vector search, a note's nearest notes, text-to-note
 * similarity — with each hit carrying the note metadata a caller usually wants beside it.
 */
import { LithosError } from '../errors';
import type { Embedder } from '../ports';
import type { NoteMeta } from '../model/types';
import type { SearchFilters, SearchHit, SearchIndex, SearchMode } from './search-index';

/** What the queries read of a live note (vault/note-indexer.ts LiveNote has it): its path and metadata. */
export interface QueriedNote {
  path: string;
  cached: { meta: Pick<NoteMeta, 'title' | 'namespace' | 'note_type' | 'tags'> };
}

/** An index hit plus the note metadata a caller usually wants beside it. */
export interface EngineSearchHit extends SearchHit {
  namespace: string;
  note_type: string;
  tags: string[];
}

export interface SearchOptions {
  k?: number;
  mode?: SearchMode;
  filters?: SearchFilters;
  /** A per-note gate (the caller's scope) applied before ranking, so k counts only allowed notes. */
  allow?: (id: string) => boolean;
}

export class NoteQueries {
  constructor(
    private readonly index: SearchIndex,
    private readonly byId: ReadonlyMap<string, QueriedNote>,
    /** Active spaces, the primary first. */
    private readonly embedders: () => readonly Embedder[],
  ) {}

  async search(query: string, opts: SearchOptions = {}): Promise<EngineSearchHit[]> {
    const mode = opts.mode ?? 'hybrid';
    const k = opts.k ?? 10;
    if (!Number.isInteger(k) || k < 1 || k > 1000) {
      throw new LithosError('invalid_argument', `k must be an integer from 1 to 1000 (got ${String(opts.k)}).`, { k: opts.k });
    }
    const text = typeof query === 'string' ? query.trim() : '';
    if (!text) return [];
    const queryVectors = new Map<string, Float32Array>();
    if (mode !== 'lexical') {
      for (const e of this.embedders()) queryVectors.set(e.spaceId, (await e.embed([text]))[0]);
    }
    return this.withMeta(await this.index.search({ text, k, mode, queryVectors, filters: opts.filters, allow: opts.allow }));
  }

  /** Nearest notes to a note's own mean chunk vector in each active space, the note itself left out. */
  async similar(id: string, opts: { k?: number; allow?: (id: string) => boolean } = {}): Promise<EngineSearchHit[]> {
    const note = this.byId.get(id);
    const queryVectors = new Map<string, Float32Array>();
    for (const e of this.embedders()) {
      const v = this.index.noteVector(id, e.spaceId);
      if (v) queryVectors.set(e.spaceId, v);
    }
    if (!note || queryVectors.size === 0) return [];
    const allow = opts.allow;
    return this.withMeta(await this.index.search({ text: note.cached.meta.title || note.path, k: opts.k ?? 10, mode: 'vector', queryVectors, allow: (h) => h !== id && (!allow || allow(h)) }));
  }

  /** A note's mean chunk vector in the primary space (unit length), or null. */
  noteVector(id: string): Float32Array | null {
    return this.index.noteVector(id, this.embedders()[0].spaceId) ?? null;
  }

  /** Cosine between `text` and each note's mean vector in the primary space (notes without one are left out). */
  async textSimilarity(ids: readonly string[], text: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (ids.length === 0 || text.trim() === '') return out;
    const q = (await this.embedders()[0].embed([text]))[0];
    for (const id of ids) {
      const v = this.noteVector(id);
      if (!v) continue;
      let dot = 0;
      for (let i = 0; i < v.length; i++) dot += v[i] * q[i];
      out.set(id, dot);
    }
    return out;
  }

  /** Hits of notes still live, with their metadata (a note removed since the index answered is dropped). */
  private withMeta(hits: SearchHit[]): EngineSearchHit[] {
    return hits.flatMap((h) => {
      const m = this.byId.get(h.id)?.cached.meta;
      return m ? [{ ...h, namespace: m.namespace, note_type: m.note_type, tags: m.tags }] : [];
    });
  }
}
