/** Query-time filters, applied to candidates before they are ranked and cut to k. */

export interface SearchFilters {
  /** Namespace prefixes, by whole '/'-separated segments: `project` matches `project` and `project/lithos`. */
  namespaces?: string[];
  note_types?: string[];
  /** When given, only these statuses (so listing `quarantined` includes it). */
  statuses?: string[];
  /** Every listed tag must be present, case-insensitive; `project` also matches nested `project/lithos`. */
  tags?: string[];
  /** Plain string prefix of the vault path (`daily/2024-` works as well as `daily/`). */
  path_prefix?: string;
  /** Quarantined notes are excluded unless this is true or `statuses` names them. */
  include_quarantined?: boolean;
}

export interface FilterableNote {
  path: string;
  namespace: string;
  note_type: string;
  status: string;
  tags: string[];
}

export type NotePredicate = (note: FilterableNote) => boolean;

/** An empty list filters nothing (rather than everything). */
export function compileFilters(filters: SearchFilters = {}): NotePredicate {
  const namespaces = filters.namespaces?.length ? filters.namespaces.map((n) => n.replace(/\/+$/, '')) : null;
  const types = filters.note_types?.length ? new Set(filters.note_types) : null;
  const statuses = filters.statuses?.length ? new Set(filters.statuses) : null;
  const tags = filters.tags?.map((t) => t.replace(/^#/, '').toLowerCase());
  const pathPrefix = filters.path_prefix ?? '';
  const hideQuarantined = !statuses && filters.include_quarantined !== true;
  return (note) => {
    if (statuses ? !statuses.has(note.status) : hideQuarantined && note.status === 'quarantined') return false;
    if (types && !types.has(note.note_type)) return false;
    if (pathPrefix && !note.path.startsWith(pathPrefix)) return false;
    if (namespaces && !namespaces.some((p) => p === '' || note.namespace === p || note.namespace.startsWith(p + '/'))) return false;
    if (tags && tags.length > 0) {
      const own = note.tags.map((t) => t.replace(/^#/, '').toLowerCase());
      if (!tags.every((want) => own.some((t) => t === want || t.startsWith(want + '/')))) return false;
    }
    return true;
  };
}

/** True when the filters can reject nothing beyond the default quarantine rule. */
export function onlyDefaultFilters(filters: SearchFilters = {}): boolean {
  return !filters.namespaces?.length && !filters.note_types?.length && !filters.statuses?.length && !filters.tags?.length && !filters.path_prefix;
}
