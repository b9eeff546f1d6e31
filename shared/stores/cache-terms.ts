import { LithosError } from '../errors';
import { CacheVectors } from './cache-vectors';
import type { StoredTermBag } from './cache-tables';

/** Terms are joined with newlines in the cache file (cache-codec.ts), so no term may hold one. */
const SEP = '\n';

/**
 * The BM25 dictionary and term bags of the cache (CacheStore extends this): the search index's dictionary,
 * append-only so term ids stay stable across sessions, and each note's bag of term ids.
 */
export abstract class CacheTerms extends CacheVectors {
  /** The whole dictionary, term id → term (a copy). */
  termDictionary(): string[] {
    return this.tables.terms.slice();
  }

  /** Appends terms whose ids start at `start`, which must be the current dictionary size. */
  appendTerms(start: number, terms: readonly string[]): void {
    this.assertOpen();
    const total = this.tables.terms.length;
    if (start !== total) throw new LithosError('invalid_argument', `Terms appended at ${start}, but the dictionary holds ${total}.`);
    if (terms.length === 0) return;
    if (terms.some((t) => typeof t !== 'string' || t === '' || t.includes(SEP))) {
      throw new LithosError('invalid_argument', 'A stored term must be non-empty and hold no newline.');
    }
    this.tables.appendTerms(terms);
    this.changed();
  }

  /** Stores bags as given: the typed arrays are kept, not copied (callers hand over the index's own, which it never mutates). */
  putTermBags(bags: readonly StoredTermBag[]): void {
    this.assertOpen();
    if (bags.length === 0) return;
    for (const b of bags) {
      if (!b.node_id || !(b.ids instanceof Uint32Array) || !(b.tfs instanceof Uint16Array) || b.ids.length !== b.tfs.length) {
        throw new LithosError('invalid_argument', 'A term bag needs a node id and as many Uint32 ids as Uint16 counts.', { node_id: b.node_id });
      }
    }
    this.tables.transaction(() => {
      for (const b of bags) this.tables.setBag(b.node_id, { node_id: b.node_id, lexHash: String(b.lexHash), length: b.length, ids: b.ids, tfs: b.tfs });
    });
    this.changed();
  }

  /** A node's stored bag, or null. */
  termBag(nodeId: string): StoredTermBag | null {
    return this.tables.bags.get(nodeId) ?? null;
  }

  /** Every stored bag. */
  *allTermBags(): Iterable<StoredTermBag> {
    for (const b of [...this.tables.bags.values()]) yield b;
  }

  /** Drops the bags of node ids no note references any more; returns how many. */
  protected pruneTermBags(): number {
    let n = 0;
    for (const nodeId of [...this.tables.bags.keys()]) {
      if (this.tables.nodeHasNote(nodeId)) continue;
      this.tables.setBag(nodeId, undefined);
      n++;
    }
    return n;
  }
}
