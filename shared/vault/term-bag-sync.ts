import type { CacheStore, StoredTermBag } from '../stores/cache-store';
import type { SearchIndex } from '../index/search-index';
import type { TermBag } from '../index/term-bags';

/**
 * Keeps the cache's BM25 dictionary and term bags in step with the search index, so a warm start hands
 * the index precomputed bags instead of tokenising every note (~1.2 s of a 10k-note start).
 *
 * Term ids are only meaningful against one dictionary: the persisted one is append-only and the index's
 * is seeded from it before any note is loaded, so the index's dictionary always extends the persisted
 * one and new terms are appended in id order before any bag that uses them is written.
 */
export class TermBagSync {
  /** Terms in the persisted dictionary; null while it is not known to be a prefix of the index's. */
  private stored: number | null = null;

  constructor(
    private readonly cache: CacheStore,
    private readonly index: SearchIndex,
  ) {}

  /**
   * Seeds the (still empty) index's dictionary from the cache and returns the stored bags by node id;
   * none when the dictionaries disagree (bags are then neither used nor written this session).
   */
  load(): Map<string, TermBag> {
    const out = new Map<string, TermBag>();
    const terms = this.cache.termDictionary();
    if (!this.index.lexicon.seedTerms(terms)) return out;
    this.stored = terms.length;
    for (const b of this.cache.allTermBags()) out.set(b.node_id, b);
    return out;
  }

  /** Persists the current bags of these notes (new terms first), skipping those `known` already holds. */
  save(ids: Iterable<string>, known?: ReadonlyMap<string, TermBag>): void {
    const stored = this.stored;
    if (stored === null) return;
    const lexicon = this.index.lexicon;
    const rows: StoredTermBag[] = [];
    for (const id of ids) {
      const bag = lexicon.bagOf(id);
      const k = known?.get(id);
      if (!bag || (k && k.lexHash === bag.lexHash && k.length === bag.length && k.ids.length === bag.ids.length)) continue;
      rows.push({ node_id: id, lexHash: bag.lexHash, ids: bag.ids, tfs: bag.tfs, length: bag.length });
    }
    if (rows.length === 0) return;
    const fresh = lexicon.termsFrom(stored);
    if (fresh.some((t) => t === '' || t.includes('\n'))) {
      this.stored = null; // a term the dictionary format cannot hold: stop persisting rather than misnumber
      return;
    }
    this.cache.transaction(() => {
      this.cache.appendTerms(stored, fresh);
      this.cache.putTermBags(rows);
    });
    this.stored = stored + fresh.length;
  }
}
