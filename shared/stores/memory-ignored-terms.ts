import type { IgnoredTermsChange, IgnoredTermsLog } from './memory-precedent-log';
import type { MemoryTables } from './memory-tables';
import type { ExpansionRow } from './memory-types';
import { allTermRows, decayedTermRows } from './decayed-terms';

/**
 * memory.sqlite's words of the questions each note was ignored for (table ignored_terms, rows shaped as
 * query-expansion rows; learning/ignored-terms.ts records them, retrieval/ignored-terms.ts reads them).
 */
export class MemoryIgnoredTerms {
  constructor(
    private readonly t: MemoryTables,
    private readonly log: IgnoredTermsLog,
  ) {}

  /** Every row, in key order. */
  rows(): ExpansionRow[] {
    return allTermRows(this.t.db, 'ignored_terms');
  }

  /** Adds 1 to each (scope, note, term) at `at`, decaying and bounding as query expansion does, in one mutation. */
  add(adds: readonly { scope: string; node_id: string; term: string }[], at: number, halfLifeDays: number, maxTerms: number): Promise<void> {
    return this.t.mutate(() => {
      const rows = decayedTermRows(this.t.db, 'ignored_terms', adds, at, halfLifeDays, maxTerms);
      return rows.length ? [{ kind: 'ignored_terms', rows }] : [];
    });
  }

  /** Counts changes in this process (readers cache on it). */
  get version(): number {
    return this.log.version;
  }

  /** The changes after `version`, oldest first; null when they are no longer kept (read rows() again). */
  changesSince(version: number): readonly IgnoredTermsChange[] | null {
    return this.log.since(version);
  }
}
