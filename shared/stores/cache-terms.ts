import type { SqlValue } from 'sql.js';
import { LithosError } from '../errors';
import { CacheVectors } from './cache-vectors';

/** A note's BM25 term bag as stored (see shared/index/term-bags.ts for what it means). */
export interface StoredTermBag {
  node_id: string;
  lexHash: string;
  ids: Uint32Array;
  tfs: Uint16Array;
  length: number;
}

/** Rows per query when streaming all bags. */
const PAGE = 2000;
/** Terms are stored as runs joined by newlines: one row per appended run, never one per term. */
const SEP = '\n';

const bytesOf = (a: Uint32Array | Uint16Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
/** sql.js hands blobs out as views; copy to a fresh, aligned buffer (hosts are little-endian). */
const copyBuffer = (v: SqlValue): ArrayBuffer => {
  const b = v instanceof Uint8Array ? v : new Uint8Array(0);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};

/**
 * The `term_dict` and `term_bags` tables of cache.sqlite (CacheStore extends this): the search index's
 * BM25 dictionary, append-only so term ids stay stable across sessions, and each note's bag of term ids.
 * Files written before these tables existed gain them empty on open, and the bags are rebuilt.
 */
export abstract class CacheTerms extends CacheVectors {
  private termTotal: number | null = null;

  /** The whole dictionary, term id → term. */
  termDictionary(): string[] {
    const out: string[] = [];
    for (const r of this.db.all('SELECT start, terms FROM term_dict ORDER BY start')) {
      if (Number(r[0]) !== out.length) break; // a gap can only come from a damaged file: keep the sound prefix
      const run = String(r[1]);
      if (run !== '') for (const t of run.split(SEP)) out.push(t);
    }
    this.termTotal = out.length;
    return out;
  }

  /** Appends terms whose ids start at `start`, which must be the current dictionary size. */
  appendTerms(start: number, terms: readonly string[]): void {
    this.assertOpen();
    const total = this.termTotal ?? this.termDictionary().length;
    if (start !== total) throw new LithosError('invalid_argument', `Terms appended at ${start}, but the dictionary holds ${total}.`);
    if (terms.length === 0) return;
    if (terms.some((t) => t === '' || t.includes(SEP))) throw new LithosError('invalid_argument', 'A stored term must be non-empty and hold no newline.');
    this.db.run('INSERT INTO term_dict (start, terms) VALUES (?, ?)', [start, terms.join(SEP)]);
    this.termTotal = total + terms.length;
    this.changed();
  }

  putTermBags(bags: readonly StoredTermBag[]): void {
    this.assertOpen();
    if (bags.length === 0) return;
    this.db.transaction(() => {
      for (const b of bags) {
        this.db.run('INSERT OR REPLACE INTO term_bags (node_id, lex_hash, length, ids, tfs) VALUES (?, ?, ?, ?, ?)', [
          b.node_id, b.lexHash, b.length, bytesOf(b.ids), bytesOf(b.tfs),
        ]);
      }
    });
    this.changed();
  }

  /** Every stored bag, read page by page. */
  *allTermBags(): Iterable<StoredTermBag> {
    let after = '';
    for (;;) {
      const rows = this.db.all('SELECT node_id, lex_hash, length, ids, tfs FROM term_bags WHERE node_id > ? ORDER BY node_id LIMIT ?', [after, PAGE]);
      for (const r of rows) {
        const ids = copyBuffer(r[3]);
        const tfs = copyBuffer(r[4]);
        if (ids.byteLength % 4 !== 0 || tfs.byteLength % 2 !== 0) continue;
        yield { node_id: String(r[0]), lexHash: String(r[1]), length: Number(r[2]), ids: new Uint32Array(ids), tfs: new Uint16Array(tfs) };
      }
      if (rows.length < PAGE) return;
      after = String(rows[rows.length - 1][0]);
    }
  }

  /** Drops the bags of node ids no note references any more; returns how many. */
  protected pruneTermBags(): number {
    this.db.run('DELETE FROM term_bags WHERE node_id NOT IN (SELECT node_id FROM notes)');
    return this.db.changes();
  }
}
