/** The conflicts (contradicts edges) among the returned nodes, listed for the query classes that want them. */
import type { QueryContext, ResolvedQuery, RetrievalCorpus, SurfacedConflict } from '../types';

/** Query classes whose results list the conflicts among them unless `surface_conflicts: false` (docs/contradictions.md). */
export const CONFLICT_CLASSES: readonly string[] = ['design', 'decision', 'synthesis', 'debug'];

export function surfacesConflicts(ctx: QueryContext, q: ResolvedQuery): boolean {
  return ctx.surface_conflicts ?? CONFLICT_CLASSES.includes(q.query_class);
}

export function conflictsAmong(ids: readonly string[], corpus: RetrievalCorpus, visible: (id: string) => boolean): SurfacedConflict[] {
  const out = new Map<string, SurfacedConflict>();
  for (const id of ids) {
    for (const e of corpus.edges(id)) {
      if (e.type !== 'contradicts' || out.has(e.edge_id)) continue;
      // Both ends must be visible: a conflict must not reveal a note the caller may not see.
      if (!visible(e.from_id) || !visible(e.to_id)) continue;
      out.set(e.edge_id, { edge_id: e.edge_id, a: e.from_id, b: e.to_id, state: e.conflict_state });
    }
  }
  return [...out.values()].sort((a, b) => (a.edge_id < b.edge_id ? -1 : 1));
}
