/**
 * What of the receipt log a caller may see (lithos_receipts). A receipt names notes (final nodes, candidates,
 * conflicts) and carries its agent's query text, so it goes through the same scope gate as the notes:
 *
 * - the person sees every receipt as stored;
 * - an agent sees its own receipts, with the notes it may not see now taken out (judged with the receipt's
 *   task, since it retrieved on that task);
 * - an agent sees another agent's (or the person's) receipt only when it may see every final node of it and
 *   its namespace filter names no other agent's private namespace (`agent/<id>`): otherwise the query text
 *   and the ranking would tell what a note it may not read is about. Its candidates and conflicts are cut to
 *   the notes the agent may see, and its per-scout hit counts are left out.
 * Notes no longer in the vault have no scope left to check, so agents do not see them (fail closed).
 */
import { canSee, type Viewer, gatedNote } from '../../governance/gate';
import type { Receipt } from '../../retrieval/types';
import type { MemoryEngine } from '../../engine';

/** The receipt as the viewer may see it, or null when it must not see it at all. */
export function receiptFor(engine: MemoryEngine, viewer: Viewer, r: Receipt): Receipt | null {
  if (viewer.kind === 'human') return r;
  const own = viewer.agent_id !== null && r.agent_id === viewer.agent_id;
  const as: Viewer = own ? { ...viewer, task_id: r.task_id } : { ...viewer, task_id: null };
  const cache = new Map<string, boolean>();
  const sees = (id: string): boolean => {
    let v = cache.get(id);
    if (v === undefined) {
      const n = engine.note(id);
      v = n !== null && n.nodeId === id && canSee(as, gatedNote(n));
      cache.set(id, v);
    }
    return v;
  };
  if (!own) {
    if (r.final_nodes.some((n) => !sees(n.id))) return null;
    if ((r.namespace_filter ?? []).some((ns) => namesOtherPrivate(ns, viewer.agent_id))) return null;
  }
  return {
    ...r,
    final_nodes: r.final_nodes.filter((n) => sees(n.id)),
    candidates: (r.candidates ?? []).filter(sees),
    conflicts: (r.conflicts ?? []).filter((c) => sees(c.a) && sees(c.b)),
    // Per-scout hit counts were counted over what that agent may see: from another's receipt they would tell
    // how many notes it sees (and that hidden ones matched). Its own keep them, for "why this result?".
    ...(own ? {} : { scouts: {} }),
  };
}

function namesOtherPrivate(ns: string, me: string | null): boolean {
  const m = /^agent\/([^/]+)/.exec(ns.trim());
  return m !== null && m[1] !== me;
}
