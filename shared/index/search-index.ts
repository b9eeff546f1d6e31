import { LithosError } from '../errors';
import { compileFilters, onlyDefaultFilters, type SearchFilters } from './filters';
import {
  emptyScores,
  fuse,
  LEXICAL_NORMALISATION,
  normalise,
  VECTOR_MIN_SIMILARITY,
  VECTOR_NORMALISATION,
  type SlotScores,
} from './fusion';
import { assertIndexDoc, copyDoc, exactKeys, lexicalText, type IndexDoc } from './index-doc';
import { LexicalIndex } from './lexical-index';
import type { TermBag } from './term-bags';
import { bestLexicalChunk, makeSnippet } from './snippet';
import { normalizeExact, tokenize } from './tokenizer';
import { topK } from './top-k';
import { VectorStore, type PackedVectors } from './vector-store';
import { macrotask } from '../stores/yield-to-host';

export type { SearchFilters } from './filters';
export type { IndexDoc } from './index-doc';

/**
 * The derived search index: Orama BM25 over one whole-note field (title, aliases, tags, headings, body) so
 * note scores are true document BM25, chunks kept for snippets and vectors, brute-force cosine per
 * embedding space, and our own fusion. It is rebuilt from stored rows at start (bulkLoad) and kept current
 * with upsert/remove; it is never serialised. All work is synchronous inside each call, so a search never
 * sees a half-applied upsert.
 */

export type SearchMode = 'lexical' | 'vector' | 'hybrid';

export interface SearchHit {
  id: string;
  path: string;
  title: string;
  /** Ranking score in [0, 1]: normalised lexical, normalised vector, or their fusion (see fusion.ts). */
  score: number;
  lexical: number;
  vector: number;
  snippet: string;
  /** Position of the chunk the snippet comes from; -1 when the note has no chunks. */
  chunk_index: number;
}

export interface SearchQuery {
  text: string;
  k?: number;
  /** Default 'hybrid', which is lexical alone when no query vector matches a stored space. */
  mode?: SearchMode;
  /** One query vector per active embedding space. */
  queryVectors?: Map<string, Float32Array>;
  filters?: SearchFilters;
  /** Extra per-note gate (retrieval's scope gate), applied with the filters before ranking. */
  allow?: (id: string) => boolean;
  /** Default true; retrieval scouts skip snippet extraction. */
  snippets?: boolean;
}

export interface SearchIndexOptions {
  /** Notes inserted between two yields of bulkLoad. */
  batchSize?: number;
  /** How bulkLoad gives the host's event loop a turn; defaults to a macrotask. */
  yieldToHost?: () => Promise<void>;
}

export interface QueryScores {
  lexical: SlotScores;
  vector: SlotScores | null;
  idOf(slot: number): string | undefined;
  /** -1 when the id is not indexed. */
  slotOf(id: string): number;
}

export const DEFAULT_K = 10;
/** Larger k are served as this many: ranking is a partial sort, O(n·k) in the worst case. */
export const MAX_K = 1000;
/**
 * Notes per bulkLoad slice: 15-25 ms of work at warm start (10k notes), so a slice plus a garbage
 * collection step stays under 50 ms (slices of 200 held the loop 30-45 ms).
 */
const DEFAULT_BATCH = 100;
export const SEARCH_MODES: readonly SearchMode[] = ['lexical', 'vector', 'hybrid'];

type VectorsBySpace = Map<string, Float32Array[]>;
/**
 * `terms`: the note's persisted BM25 bag, used instead of tokenising when still valid (term-bags.ts).
 * `packed`: vectors of further spaces still int8-quantised, as the cache holds them (no decoding at load).
 */
type LoadItem = { doc: IndexDoc; vectors: VectorsBySpace; terms?: TermBag; packed?: ReadonlyMap<string, PackedVectors> };

export class SearchIndex {
  private readonly notes = new Map<string, { doc: IndexDoc; slot: number }>();
  /** slot (Orama internal id, see lexical-index.ts) → note */
  private readonly bySlot: (IndexDoc | undefined)[] = [];
  private readonly exact = new Map<string, Set<string>>();
  private quarantined = 0;

  private constructor(
    private readonly lexical: LexicalIndex,
    private readonly vectors: VectorStore,
    private readonly batchSize: number,
    private readonly yieldToHost: () => Promise<void>,
  ) {}

  static async create(opts: SearchIndexOptions = {}): Promise<SearchIndex> {
    return new SearchIndex(LexicalIndex.create(), new VectorStore(), Math.max(1, opts.batchSize ?? DEFAULT_BATCH), opts.yieldToHost ?? macrotask);
  }

  /** Replaces any previous version of doc.id. Validates everything before changing anything. */
  async upsert(doc: IndexDoc, vectors: VectorsBySpace): Promise<void> {
    this.validate(doc, vectors);
    this.admit([{ doc, vectors }]);
  }

  async remove(id: string): Promise<void> {
    if (!this.notes.has(id)) return;
    this.lexical.remove(id);
    this.forget(id);
  }

  /**
   * Inserts in batches, reporting the running count and yielding to the host between batches. A repeated
   * id keeps its last version. An invalid item throws; batches before it stay loaded.
   */
  async bulkLoad(docs: Iterable<LoadItem>, onProgress?: (done: number) => void): Promise<void> {
    let batch: LoadItem[] = [];
    let done = 0;
    const newSpaces = new Map<string, number>();
    for (const item of docs) {
      this.validate(item.doc, item.vectors, newSpaces, item.packed);
      batch.push(item);
      if (batch.length >= this.batchSize) {
        this.admit(batch);
        done += batch.length;
        batch = [];
        onProgress?.(done);
        await this.yieldToHost();
      }
    }
    if (batch.length > 0) {
      this.admit(batch);
      done += batch.length;
      onProgress?.(done);
    }
  }

  /**
   * Builds now what the first query would: the BM25 postings (~50 ms at 10k notes). For the end of a warm
   * start's load, so the first search or retrieval costs what the next ones do. Bulk loads of a cold index
   * leave it to the first query: postings built between batches would only take the later notes as slower
   * late inserts.
   */
  prepareQueries(): void {
    this.lexical.preparePostings();
  }

  /** The BM25 dictionary and term bags, for persisting them (note-indexer.ts). */
  get lexicon(): Pick<LexicalIndex, 'seedTerms' | 'termCount' | 'termsFrom' | 'bagOf' | 'bagsUsed'> {
    return this.lexical;
  }

  has(id: string): boolean {
    return this.notes.has(id);
  }

  size(): number {
    return this.notes.size;
  }

  ids(): string[] {
    return [...this.notes.keys()].sort();
  }

  async search(q: SearchQuery): Promise<SearchHit[]> {
    const mode = q.mode ?? 'hybrid';
    if (!SEARCH_MODES.includes(mode)) throw new LithosError('invalid_argument', `Unknown search mode "${String(mode)}".`, { mode });
    if (q.k !== undefined && (!Number.isInteger(q.k) || q.k < 1)) {
      throw new LithosError('invalid_argument', 'k must be a positive integer.', { k: q.k });
    }
    const k = Math.min(q.k ?? DEFAULT_K, MAX_K);
    if (mode === 'vector' && !q.queryVectors?.size) {
      throw new LithosError('invalid_argument', 'Vector search needs a query vector for at least one embedding space.');
    }
    const text = typeof q.text === 'string' ? q.text : '';
    if (text.trim() === '' || this.notes.size === 0) return [];

    const size = this.lexical.slotCount();
    const allowed = this.allowedSlots(q.filters, size, q.allow);
    const terms = tokenize(text);
    const lexical = mode === 'vector' ? emptyScores(size) : this.lexicalScores(text, allowed);
    const vector = mode === 'lexical' ? null : this.vectorScores(q.queryVectors, allowed, size);
    let score: SlotScores;
    if (mode === 'hybrid' && vector) score = fuse(lexical, vector.scores);
    else if (mode === 'vector') score = vector?.scores ?? emptyScores(size);
    else score = lexical;

    // An exact title/alias query must surface its note in hybrid results whatever the fused scores say.
    const pinned = new Set<number>();
    if (mode === 'hybrid') {
      for (const id of this.exact.get(normalizeExact(text)) ?? []) {
        const slot = this.notes.get(id)!.slot;
        if (!allowed || allowed[slot]) pinned.add(slot);
      }
    }
    const candidates: number[] = [...pinned];
    for (let slot = 1; slot < size; slot++) if (score[slot] === score[slot] && !pinned.has(slot)) candidates.push(slot);
    // Pinned first, then score, then path (unique, and the same whatever ids the notes were given): a total
    // order, so equal indexes give equal results.
    const better = (a: number, b: number): boolean => {
      const pa = pinned.has(a);
      if (pa !== pinned.has(b)) return pa;
      const sa = score[a] === score[a] ? score[a] : 0;
      const sb = score[b] === score[b] ? score[b] : 0;
      return sa !== sb ? sa > sb : this.bySlot[a]!.path < this.bySlot[b]!.path;
    };
    const termSet = new Set(terms);
    return topK(candidates, k, better).map((slot) => {
      const note = this.bySlot[slot]!;
      const lex = lexical[slot] === lexical[slot] ? lexical[slot] : 0;
      const vec = vector && vector.scores[slot] === vector.scores[slot] ? vector.scores[slot] : 0;
      let chunk = note.chunks.length > 0 ? 0 : -1;
      if (q.snippets === false) chunk = -1;
      else if (lex > 0) chunk = bestLexicalChunk(note.chunks, termSet, (t) => this.lexical.idf(t));
      else if (vec > 0) chunk = vector!.chunks[slot];
      return {
        id: note.id,
        path: note.path,
        title: note.title,
        score: pinned.has(slot) ? 1 : score[slot] === score[slot] ? score[slot] : 0,
        lexical: lex,
        vector: vec,
        snippet: chunk >= 0 ? makeSnippet(note.chunks[chunk].text, [...termSet]) : '',
        chunk_index: chunk,
      };
    });
  }

  private lexicalScores(text: string, allowed: Uint8Array | null): SlotScores {
    const raw = this.lexical.scores(text);
    if (allowed) for (let slot = 0; slot < raw.length; slot++) if (!allowed[slot]) raw[slot] = NaN;
    return normalise(raw, LEXICAL_NORMALISATION);
  }

  /**
   * Each space searched and normalised on its own, then a note keeps its best space (mergeSpaces in
   * fusion.ts, inlined here to also keep the chunk that won). null when no query vector belongs to a
   * stored space: hybrid then ranks lexically.
   */
  private vectorScores(queryVectors: Map<string, Float32Array> | undefined, allowed: Uint8Array | null, size: number) {
    const scores = emptyScores(size);
    const chunks = new Int32Array(size);
    let used = 0;
    for (const spaceId of [...(queryVectors?.keys() ?? [])].sort()) {
      const space = this.vectors.space(spaceId);
      if (!space) continue;
      used++;
      const best = emptyScores(size);
      const chunk = new Int32Array(size);
      space.search(queryVectors!.get(spaceId)!, allowed, best, chunk);
      for (let slot = 0; slot < size; slot++) if (!(best[slot] > VECTOR_MIN_SIMILARITY)) best[slot] = NaN;
      const norm = normalise(best, VECTOR_NORMALISATION);
      for (let slot = 0; slot < size; slot++) {
        if (norm[slot] > scores[slot] || (scores[slot] !== scores[slot] && norm[slot] === norm[slot])) {
          scores[slot] = norm[slot];
          chunks[slot] = chunk[slot];
        }
      }
    }
    return used === 0 ? null : { scores, chunks };
  }

  /** A 0/1 mask of slots passing the filters, or null when nothing can be filtered out. */
  private allowedSlots(filters: SearchFilters | undefined, size: number, allow?: (id: string) => boolean): Uint8Array | null {
    if (!allow && onlyDefaultFilters(filters) && (filters?.include_quarantined === true || this.quarantined === 0)) return null;
    const accept = compileFilters(filters);
    const mask = new Uint8Array(size);
    for (const { doc, slot } of this.notes.values()) if (accept(doc) && (!allow || allow(doc.id))) mask[slot] = 1;
    return mask;
  }

  /**
   * Normalised lexical and vector scores of every allowed note for one query, by slot (NaN = no match), as
   * search() computes them. Retrieval reads both sides for every candidate, not only each side's top k.
   */
  queryScores(text: string, queryVectors: Map<string, Float32Array> | undefined, allow?: (id: string) => boolean, mask?: Uint8Array): QueryScores {
    const size = this.lexical.slotCount();
    const allowed = mask && mask.length >= size ? mask : this.allowedSlots(undefined, size, allow);
    const lexical = text.trim() === '' ? emptyScores(size) : this.lexicalScores(text, allowed);
    const vector = queryVectors?.size ? (this.vectorScores(queryVectors, allowed, size)?.scores ?? null) : null;
    return {
      lexical,
      vector,
      idOf: (slot) => this.bySlot[slot]?.id,
      slotOf: (id) => this.notes.get(id)?.slot ?? -1,
    };
  }

  /** How far the query's known words narrow the index down to one note (LexicalIndex.narrowing); 0 for an unknown id. */
  narrowing(text: string, id: string): number {
    const entry = this.notes.get(id);
    return entry ? this.lexical.narrowing(text, entry.slot) : 0;
  }

  /** A slot mask of the notes `allow` accepts, for queryScores (callers cache it while nothing changes). */
  maskOf(allow: (id: string) => boolean): Uint8Array {
    const size = this.lexical.slotCount();
    const mask = new Uint8Array(size);
    for (const { doc, slot } of this.notes.values()) if (allow(doc.id)) mask[slot] = 1;
    return mask;
  }

  /** The note's indexed text (its chunks, heading lines included), or null when it is not indexed. */
  noteText(id: string): string | null {
    const entry = this.notes.get(id);
    return entry ? entry.doc.chunks.map((c) => c.text).join('\n') : null;
  }

  /** Notes whose title or alias equals `text` after normalizeExact (case, spacing, punctuation). */
  exactIds(text: string): string[] {
    return [...(this.exact.get(normalizeExact(text)) ?? [])].sort();
  }

  /** The mean of a note's chunk vectors in one space, unit length; null when it has none there. */
  noteVector(id: string, spaceId: string): Float32Array | null {
    const entry = this.notes.get(id);
    return entry ? (this.vectors.space(spaceId)?.meanOf(entry.slot) ?? null) : null;
  }

  private validate(doc: IndexDoc, vectors: VectorsBySpace, newSpaces?: Map<string, number>, packed?: LoadItem['packed']): void {
    assertIndexDoc(doc);
    if (!(vectors instanceof Map)) throw new LithosError('invalid_argument', `Vectors of note ${doc.id} must be a Map by space id.`);
    this.vectors.validate(doc.id, doc.chunks.length, vectors, newSpaces, packed);
  }

  /** Stores copies (callers may reuse their objects) and feeds one Orama insert for the whole batch. */
  private admit(items: readonly LoadItem[]): void {
    const pending = new Map<string, { id: string; text: () => string; bag?: TermBag }>();
    for (const { doc, vectors, terms, packed } of items) {
      if (this.notes.has(doc.id)) {
        if (!pending.has(doc.id)) this.lexical.remove(doc.id);
        this.forget(doc.id);
      }
      const copy = copyDoc(doc);
      const slot = this.lexical.slotOf(copy.id);
      this.notes.set(copy.id, { doc: copy, slot });
      this.bySlot[slot] = copy;
      if (copy.status === 'quarantined') this.quarantined++;
      for (const key of exactKeys(copy)) {
        let ids = this.exact.get(key);
        if (!ids) this.exact.set(key, (ids = new Set()));
        ids.add(copy.id);
      }
      this.vectors.set(slot, vectors, packed);
      pending.set(copy.id, { id: copy.id, text: () => lexicalText(copy), bag: terms });
    }
    this.lexical.addMany([...pending.values()]);
  }

  /** Drops everything but the Orama document (the caller removes that). */
  private forget(id: string): void {
    const entry = this.notes.get(id);
    if (!entry) return;
    if (entry.doc.status === 'quarantined') this.quarantined--;
    for (const key of exactKeys(entry.doc)) {
      const ids = this.exact.get(key);
      ids?.delete(id);
      if (ids?.size === 0) this.exact.delete(key);
    }
    this.vectors.remove(entry.slot);
    this.bySlot[entry.slot] = undefined;
    this.notes.delete(id);
  }
}
