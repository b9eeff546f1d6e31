/**
 * Drift triage as a session's viewer may see it (learning/drift.ts ranks; docs/ledger.md, "Drift triage"):
 * alerts only about notes the viewer sees — a conflict only when it sees both ends, a reference only in a
 * note it sees, and a reference that names several entries only when it sees them all. Whether an entry is
 * orphaned counts every link of the vault: a link from a note the viewer may not see still keeps it alive.
 */
import { isLedgerKind } from '../model/ledger';
import { isRetired, lastActivity } from '../model/phases';
import { driftAlerts, type DriftAlert, type DriftEntry, type DriftNote, type DriftRef } from '../learning/drift';
import { writtenAt } from '../learning/ledger-phases';
import { ledgerIdProblems } from '../vault/ledger-report';
import type { LiveNote } from '../vault/note-indexer';
import type { ConflictsRoom } from './conflicts-room';
import type { NotesRoom } from './notes-room';
import type { Services } from './services';

export class DriftRoom {
  constructor(
    private readonly services: Services,
    private readonly notes: NotesRoom,
    private readonly conflicts: ConflictsRoom,
  ) {}

  /** The alerts about what the viewer sees, most urgent first, as of the engine's clock. */
  async alerts(): Promise<DriftAlert[]> {
    const { notes, learning, clock } = this.services;
    await learning.tunables.refresh(); // a hand edit of learning.json's thresholds applies now
    const now = clock.now();
    const visible = this.notes.all();
    const entries: DriftEntry[] = [];
    for (const n of visible) {
      const ledger = n.cached.meta.ledger;
      const kind = n.cached.meta.note_type;
      if (!isLedgerKind(kind) || !ledger) continue;
      const standing = learning.ledger.standing(n, now);
      if (!standing) continue;
      const written = writtenAt(n);
      const out = notes.links(n.path).filter((r) => r.targetPath !== null && r.targetPath !== n.path).length;
      const into = notes.backlinks(n.path).filter((p) => p !== n.path).length;
      entries.push({
        note: noteOf(n),
        kind,
        state: ledger.state,
        retired: isRetired(kind, ledger.state, ledger.superseded_by.length > 0),
        written_at: written,
        last_active: lastActivity(learning.memory.stats.get(n.nodeId).last_used_at, written),
        links: out + into,
        phase: standing.phase,
        vitality: standing.vitality,
      });
    }
    const conflicts = this.conflicts.list({ state: 'unreviewed' }).flatMap((c) => {
      const a = this.notes.byId(c.a);
      const b = this.notes.byId(c.b);
      return a && b ? [{ edge_id: c.edge_id, a: noteOf(a), b: noteOf(b), created_at: c.created_at }] : [];
    });
    const problems = await ledgerIdProblems({
      notes: visible,
      links: (p) => notes.links(p),
      byLedgerId: (r) => notes.byLedgerId(r),
      // Drift names the note and the reference; doctor gives its line.
      bodyOffset: () => Promise.resolve(0),
    });
    const refs: DriftRef[] = [];
    for (const p of problems) {
      const ambiguous = p.code === 'ambiguous_ledger_ref';
      if ((p.code !== 'unresolved_ledger_ref' && !ambiguous) || p.ref === undefined) continue;
      if (ambiguous && !(p.candidates ?? []).every((c) => this.notes.atPath(c.path) !== null)) continue;
      const n = this.notes.atPath(p.path);
      if (!n) continue;
      refs.push({ note: noteOf(n), ref: p.ref, ...(p.field ? { field: p.field } : {}), ambiguous, written_at: writtenAt(n) });
    }
    return driftAlerts({ entries, conflicts, refs }, learning.tunables.get().drift, now);
  }
}

function noteOf(n: LiveNote): DriftNote {
  return { id: n.nodeId, path: n.path, title: n.cached.meta.title, ledger_id: n.cached.ledgerId ?? null };
}
