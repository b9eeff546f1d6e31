/**
 * The L0 briefing as a session's viewer may read it (ledger/briefing.ts renders it): only ledger entries the
 * viewer sees, conflicts whose both ends it sees and drift alerts about notes it sees go in, so the page never
 * names, counts or hints at a note it may not read — not its title, ID or target. The person's copy in the
 * vault is generated from a person's session (session/briefing-note.ts).
 */
import { renderBriefing, type BriefingConflict, type BriefingDriftAlert, type BriefingEntry, type BriefingInput } from '../ledger/briefing';
import { isLedgerKind } from '../model/ledger';
import { openToReview } from '../stores/conflict-edges';
import type { LiveNote } from '../vault/note-indexer';
import type { DriftAlert } from '../learning/drift';
import type { ConflictsRoom } from './conflicts-room';
import type { DriftRoom } from './drift-room';
import type { NotesRoom } from './notes-room';
import type { Services } from './services';

/** A drift alert as the briefing takes it: about one note, by id. The room drops alerts about notes the viewer may not see. */
export interface DriftAlertInput {
  node_id: string;
  reason: string;
  urgency: number;
}

export interface BriefingOptions {
  /** Drift alerts to show; absent: the viewer's own drift triage (session/drift-room.ts); null: no drift section. */
  drift?: readonly DriftAlertInput[] | null;
  /** The line cap (ledger/briefing.ts BRIEFING_MAX_LINES by default). */
  maxLines?: number;
}

const ref = (n: LiveNote): string => n.cached.meta.ledger?.ledger_id ?? n.nodeId;

export class BriefingRoom {
  constructor(
    private readonly services: Services,
    private readonly notes: NotesRoom,
    private readonly conflicts: ConflictsRoom,
    private readonly driftRoom: DriftRoom,
  ) {}

  /** The briefing's Markdown for this viewer. */
  async text(opts: BriefingOptions = {}): Promise<string> {
    return renderBriefing(await this.input(opts), opts.maxLines);
  }

  /** What the briefing shows this viewer, before it is rendered. */
  async input(opts: Pick<BriefingOptions, 'drift'> = {}): Promise<BriefingInput> {
    const now = this.services.clock.now();
    const entries: BriefingEntry[] = [];
    for (const n of this.notes.all()) {
      const l = n.cached.meta.ledger;
      if (!l || !isLedgerKind(n.cached.meta.note_type)) continue;
      const standing = this.services.learning.ledger.standing(n, now);
      entries.push({
        ref: ref(n),
        title: n.cached.meta.title,
        kind: l.kind,
        state: l.state,
        target: l.target,
        phase: standing?.phase ?? 'pattern',
        vitality: standing?.vitality ?? 'active',
        supersededBy: l.superseded_by.length > 0 ? l.superseded_by.join(', ') : null,
        noteActive: n.cached.meta.status === 'active',
        at: writtenMs(n),
      });
    }
    const conflicts: BriefingConflict[] = [];
    for (const c of this.conflicts.list()) {
      if (!openToReview(c)) continue;
      const a = this.notes.byId(c.a);
      const b = this.notes.byId(c.b);
      if (!a || !b) continue;
      conflicts.push({ a: { ref: ref(a), title: a.cached.meta.title }, b: { ref: ref(b), title: b.cached.meta.title }, state: c.state, at: c.created_at });
    }
    let drift: BriefingDriftAlert[] | undefined;
    const alerts = opts.drift === undefined ? (await this.driftRoom.alerts()).map(driftInput) : opts.drift;
    if (alerts !== null) {
      drift = [];
      for (const d of alerts) {
        const n = this.notes.byId(d.node_id);
        if (n) drift.push({ ref: ref(n), title: n.cached.meta.title, reason: d.reason, urgency: d.urgency });
      }
    }
    return { at: new Date(now).toISOString(), entries, conflicts, ...(drift ? { drift } : {}) };
  }
}

/** One line's worth of a drift alert: what, how old, against which threshold. */
function driftInput(a: DriftAlert): DriftAlertInput {
  const what = a.kind.replace(/_/g, ' ');
  const detail = a.other ? ` with ${a.other.ledger_id ?? a.other.id}` : a.ref ? ` ${a.ref}` : '';
  return { node_id: a.note.id, reason: `${what}${detail}, ${a.age_days} days (threshold ${a.threshold.days})`, urgency: a.urgency };
}

function writtenMs(n: LiveNote): number {
  const t = Date.parse(n.cached.meta.updated_at ?? n.cached.meta.created_at ?? '');
  return Number.isFinite(t) ? t : n.mtime;
}
