import { components, count, create, insertMultiple, remove, type AnyOrama } from '@orama/orama';
import { LithosError } from '../errors';
import { emptyScores, type SlotScores } from './fusion';
import { accumulateBm25, createBm25Index, createStubDocumentsStore, oramaTokenizer, preparePostings, seedTerms, termStats, type Bm25IndexStore, type FieldStats } from './orama-bm25';
import type { DocTerms } from './postings';
import { currentBag, lexicalHash, usableBag, type TermBag } from './term-bags';
import { tokenize } from './tokenizer';

/**
 * BM25 parameters of the reference run (Anserini/Pyserini defaults). `d` is the BM25+ lower bound that
 * Orama adds inside the numerator; 0 gives plain BM25 (Orama's default 0.5 favours long documents).
 */
export const BM25_PARAMS = { k: 0.9, b: 0.4, d: 0 } as const;

const FIELD = 'text';
const { getInternalDocumentId } = components.internalDocumentIDStore;

/** Orama only goes async when a component or hook is async; ours are not, and callers rely on that. */
function assertSync<T>(result: T | Promise<T>): T {
  if (result instanceof Promise) throw new LithosError('internal', 'Orama answered asynchronously; the index expects synchronous components.');
  return result;
}

/**
 * Orama full-text index over one whole-note field. One field (not title/body fields summed) because the
 * reference BM25 scores "title + text" as one bag of words; chunk-level scores would split a note's term
 * statistics and rank long notes differently.
 *
 * Orama's internal document ids double as note slots for the whole search index: dense, stable for an
 * id once assigned (Orama never frees them), so vectors and per-query score arrays share one numbering.
 */
export class LexicalIndex {
  /** slot → lexicalHash of the text its bag was counted from */
  private readonly hashes: (string | undefined)[] = [];
  /** Documents inserted from a precomputed bag rather than tokenised (for tests and diagnostics). */
  bagsUsed = 0;

  private constructor(private readonly db: AnyOrama) {}

  static create(): LexicalIndex {
    const db = create({
      schema: { [FIELD]: 'string' } as const,
      sort: { enabled: false },
      components: { tokenizer: oramaTokenizer(tokenize), index: createBm25Index(), documentsStore: createStubDocumentsStore([FIELD]) },
    });
    return new LexicalIndex(db);
  }

  /** The slot of an id, assigned on first use. */
  slotOf(id: string): number {
    return getInternalDocumentId(this.db.internalDocumentIDStore, id);
  }

  /** Score arrays must be at least this long (slots start at 1). */
  slotCount(): number {
    return this.db.internalDocumentIDStore.internalIdToId.length + 1;
  }

  /**
   * Adds documents whose ids are not in the index yet (Orama is handed fresh objects, never the caller's).
   * A document's `bag` (see term-bags.ts) is inserted instead of tokenising its text when it was counted
   * from exactly that text against this index's dictionary; otherwise the text is tokenised. `text` may be
   * a function, called only when the text is needed (a `current` bag needs none).
   */
  addMany(docs: ReadonlyArray<{ id: string; text: string | (() => string); bag?: TermBag }>): void {
    if (docs.length === 0) return;
    const stats = this.stats();
    const preset = new Map<string, DocTerms>();
    const fresh = docs.map((d) => {
      const slot = this.slotOf(d.id);
      const known = currentBag(d.bag, stats.terms.length);
      if (known) {
        // Orama only sees the field through our index component, which inserts the preset bag.
        this.hashes[slot] = d.bag!.lexHash;
        preset.set(d.id, known);
        return { id: d.id, [FIELD]: '' };
      }
      const text = typeof d.text === 'function' ? d.text() : d.text;
      const hash = lexicalHash(text);
      this.hashes[slot] = hash;
      const bag = usableBag(d.bag, hash, stats.terms.length);
      if (bag) preset.set(d.id, bag);
      return { id: d.id, [FIELD]: text };
    });
    stats.preset = preset.size > 0 ? preset : null;
    try {
      assertSync(insertMultiple(this.db, fresh, fresh.length));
    } finally {
      stats.preset = null;
    }
    this.bagsUsed += preset.size;
  }

  /** Extends an empty (or prefix) dictionary with persisted terms in id order; false if they conflict. */
  seedTerms(terms: readonly string[]): boolean {
    return seedTerms(this.stats(), terms);
  }

  termCount(): number {
    return this.stats().terms.length;
  }

  /** Terms with ids from `start` on, in id order (the part of the dictionary not yet persisted). */
  termsFrom(start: number): string[] {
    return this.stats().terms.slice(start);
  }

  /** A document's current bag with the hash of the text it came from, or null if not indexed. */
  bagOf(id: string): TermBag | null {
    const slot = this.db.internalDocumentIDStore.idToInternalId.get(id);
    const doc = slot === undefined ? undefined : this.stats().docs[slot];
    const lexHash = slot === undefined ? undefined : this.hashes[slot];
    return doc && lexHash ? { ids: doc.ids, tfs: doc.tfs, length: doc.length, lexHash } : null;
  }

  remove(id: string): void {
    assertSync(remove(this.db, id));
  }

  size(): number {
    return count(this.db);
  }

  /**
   * Raw BM25 of every matching note by slot (NaN elsewhere); no cut, since filters and fusion need all.
   * Calls our Orama index component's scoring directly rather than Orama's search(): that would sort
   * every hit and build a result object per hit (~4 ms per query at 10k notes) to page them, which we
   * never do.
   */
  scores(text: string): SlotScores {
    const size = this.slotCount();
    const tokens = tokenize(text);
    if (tokens.length === 0 || count(this.db) === 0) return emptyScores(size);
    const acc = new Float64Array(size);
    const index = this.db.data.index as unknown as Bm25IndexStore;
    const touched = accumulateBm25(index, FIELD, tokens, { ...BM25_PARAMS }, 1, acc);
    const out = emptyScores(size);
    for (const slot of touched) out[slot] = acc[slot];
    return out;
  }

  /** Builds the postings the first query would otherwise build (orama-bm25.ts). */
  preparePostings(): void {
    preparePostings(this.db.data.index as unknown as Bm25IndexStore);
  }

  private stats(): FieldStats {
    return (this.db.data.index as unknown as Bm25IndexStore).bm25[FIELD];
  }

  /**
   * How far the query's known words narrow the index down to the note in `slot`, in units of "singles
   * out one note": Σ ln(N/df) over the query's distinct terms that this note holds, divided by ln N. Words
   * the index never saw, or that the note lacks, add nothing; words in every note add nothing either. So
   * words pointing at different notes (a mixed query) narrow less than the same words all in one note.
   */
  narrowing(text: string, slot: number): number {
    const stats = (this.db.data.index as unknown as Bm25IndexStore).bm25[FIELD];
    const docs = stats?.docCount ?? 0;
    const bag = stats?.docs[slot];
    if (docs < 2 || !bag) return 0;
    const held = new Set(bag.ids);
    let bits = 0;
    for (const t of new Set(tokenize(text))) {
      const id = stats.dict.get(t);
      if (id !== undefined && held.has(id) && stats.df[id] > 0) bits += Math.log(docs / stats.df[id]);
    }
    return bits / Math.log(docs);
  }

  /** Inverse document frequency of a term, for weighting terms when picking a snippet chunk. */
  idf(term: string): number {
    const { df, docs } = termStats(this.db.data.index as unknown as Bm25IndexStore, FIELD, term);
    return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
  }
}
