import type { MemoryOp } from './memory-types';

/** A change to the precedents table, as readers of precedentChangesSince see it. */
export type PrecedentChange = Extract<MemoryOp, { kind: 'precedent' | 'precedent_del' }>;
/** A change to the query-expansion rows (a purged node loses its rows), as readers of expansionChangesSince see it. */
export type ExpansionChange = Extract<MemoryOp, { kind: 'expansion' | 'purge' }>;
/** A change to the ignored-terms rows (a purged node loses its rows), as readers of ignored.changesSince see it. */
export type IgnoredTermsChange = Extract<MemoryOp, { kind: 'ignored_terms' | 'purge' }>;
/** Changes kept in memory for incremental readers; one further behind rebuilds from the table. */
const LOG_KEEP = 1000;

/** The changes of one kind applied in this process, so a reader can catch up without re-reading the table. */
export class ChangeLog<T extends MemoryOp> {
  private log: T[] = [];
  private start = 0;

  constructor(private readonly keeps: (op: MemoryOp) => op is T) {}

  /** Called for every op the store applies; keeps those of its kind. */
  record(op: MemoryOp): void {
    if (!this.keeps(op)) return;
    this.log.push(op);
    if (this.log.length > 2 * LOG_KEEP) {
      const drop = this.log.length - LOG_KEEP;
      this.log = this.log.slice(drop);
      this.start += drop;
    }
  }

  get version(): number {
    return this.start + this.log.length;
  }

  since(version: number): readonly T[] | null {
    if (version < this.start || version > this.version) return null;
    return this.log.slice(version - this.start);
  }
}

/** The precedent changes (precedent scout's index). */
export class PrecedentLog extends ChangeLog<PrecedentChange> {
  constructor() {
    super((op): op is PrecedentChange => op.kind === 'precedent' || op.kind === 'precedent_del');
  }
}

/** The query-expansion changes (the expansion scout's index). */
export class ExpansionLog extends ChangeLog<ExpansionChange> {
  constructor() {
    super((op): op is ExpansionChange => op.kind === 'expansion' || op.kind === 'purge');
  }
}

/** The ignored-terms changes (the re-rank's query-conditional ignored penalty). */
export class IgnoredTermsLog extends ChangeLog<IgnoredTermsChange> {
  constructor() {
    super((op): op is IgnoredTermsChange => op.kind === 'ignored_terms' || op.kind === 'purge');
  }
}
