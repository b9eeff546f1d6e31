/**
 * The receipt log as a session's viewer may see it. A receipt names notes (final nodes, candidates,
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
import { LithosError } from '../errors';
import { canSee, gatedNote, type Viewer } from '../governance/gate';
import { MAX_RECEIPTS_LIMIT, type ReceiptQuery } from '../retrieval/receipts';
import type { Receipt } from '../retrieval/types';
import type { NotesRoom } from './notes-room';
import type { Services } from './services';
import type { SessionScope } from './session-scope';

/** A receipt query; `node` names a note by id or vault path (the person may also name a deleted one). */
export type ReceiptFilter = Omit<ReceiptQuery, 'limit'>;

export interface VisibleReceipts {
  /** Newest first, each as the viewer may see it. */
  receipts: Receipt[];
  /** Damaged lines met in the log (not the viewer's business which receipts they were). */
  skipped_lines: number;
}

export class ReceiptsRoom {
  constructor(
    private readonly services: Services,
    private readonly who: SessionScope,
    private readonly notes: NotesRoom,
  ) {}

  /**
   * The receipts matching `q` that the viewer may see, as it may see them: at least `count` when the log
   * holds that many (it may return more), all of them otherwise. not_found for a `node` the viewer may not see.
   */
  async query(q: ReceiptFilter, count: number): Promise<VisibleReceipts> {
    const query: ReceiptQuery = { ...q };
    if (q.node !== undefined) query.node = this.nodeId(q.node);
    for (const k of Object.keys(query) as (keyof ReceiptQuery)[]) if (query[k] === undefined) delete query[k];
    // The log applies `limit` before the gate does: read more until enough are visible or the log is exhausted.
    let want = count;
    for (;;) {
      const res = await this.services.retrieval.receipts.query({ ...query, limit: want });
      const shown = res.receipts.map((r) => this.view(r)).filter((r): r is Receipt => r !== null);
      if (shown.length >= count || res.receipts.length < want || want >= MAX_RECEIPTS_LIMIT) return { receipts: shown, skipped_lines: res.skipped_lines };
      want = Math.min(MAX_RECEIPTS_LIMIT, want * 4);
    }
  }

  /**
   * The receipt as stored (feedback applies to what retrieval returned), when the viewer may see it at all;
   * not_found when there is none or it may not.
   */
  async get(receiptId: string): Promise<Receipt> {
    const r = (await this.services.retrieval.receipts.query({ receipt_id: receiptId, limit: 1 })).receipts[0];
    if (!r || this.view(r) === null) throw new LithosError('not_found', `No receipt ${receiptId}. Pass the receipt_id lithos_retrieve returned.`, { receipt_id: receiptId });
    return r;
  }

  /** The receipt as the viewer may see it, or null when it must not see it at all (see the module comment). */
  view(r: Receipt): Receipt | null {
    const viewer = this.who.viewer;
    if (viewer.kind === 'human') return r;
    const own = viewer.agent_id !== null && r.agent_id === viewer.agent_id;
    const as: Viewer = own ? { ...viewer, task_id: r.task_id } : { ...viewer, task_id: null };
    const cache = new Map<string, boolean>();
    const sees = (id: string): boolean => {
      let v = cache.get(id);
      if (v === undefined) {
        const n = this.services.notes.note(id);
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

  /**
   * The node id a `node` filter names. For an agent, a note it may not see is not found, as everywhere; the
   * person may also name a deleted note, by its id or its last path.
   */
  private nodeId(ref: string): string {
    if (!this.who.isPerson) return this.notes.findByIdOrPath(ref).nodeId;
    const live = this.services.notes.note(ref);
    if (live && (live.nodeId === ref || live.path === ref)) return live.nodeId;
    return this.services.learning.memory.nodes.findTombstone({ path: ref })?.node_id ?? ref;
  }
}

function namesOtherPrivate(ns: string, me: string | null): boolean {
  const m = /^agent\/([^/]+)/.exec(ns.trim());
  return m !== null && m[1] !== me;
}
