/**
 * Keeps the knowledge ledger's phases and vitality (model/phases.ts has the rules; docs/ledger.md, "Phases
 * and vitality", the definitions). An evaluation gathers each entry's signals from use — node_stats,
 * conflicts, links, typed edges and co-use in memory.sqlite — steps its phase by the rules, and stores
 * phase, vitality and since-when in memory.sqlite (ledger_phases); never in the note's frontmatter.
 * Each phase change is audited `ledger.phase`, each vitality change `ledger.vitality`.
 *
 * Evaluated after feedback (the entries the receipt returned), at consolidation (every entry) and when an
 * entry's note changes (a superseded or refuted entry leaves canonical at once). A retrieval never
 * evaluates: being shown is no use.
 */
import { normaliseTarget, targetIdentity } from '../ledger/target-names';
import type { LearningPorts } from './learning-ports';
import type { AuditActor } from '../governance/audit';
import { isLedgerKind, LEDGER_FIELDS, type LedgerKind, type Phase, type Vitality } from '../model/ledger';
import {
  CO_USE_DEPENDANT_MIN,
  effectiveConfidence,
  isRetired,
  lastActivity,
  nextPhase,
  phaseSignals,
  vitalityAt,
  vitalitySince,
  type PhaseInput,
  type PhaseSignals,
} from '../model/phases';
import { CONFLICT_EDGE_TYPE, toConflict } from '../stores/conflict-edges';
import type { LedgerPhaseRow } from '../stores/memory-types';
import type { LiveNote } from '../vault/note-indexer';

/** What an evaluation reads and writes. */
export type LedgerPhasePorts = Pick<LearningPorts, 'notes' | 'memory' | 'audit' | 'clock' | 'logger'>;

/** Edge types whose `from` note relies on the `to` note (and `supports`, the other way round). */
const DEPENDS_INTO = new Set(['depends_on', 'derived_from', 'is_example_of']);
const DEPENDS_OUT = new Set(['supports']);

/** An entry's standing as shown (lithos_read, the note panel): the stored phase, the vitality at `now`. */
export interface LedgerStanding {
  node_id: string;
  kind: LedgerKind;
  phase: Phase;
  /** ms since the phase began (for a pattern never evaluated: when the note was written). */
  phase_since: number;
  vitality: Vitality;
  vitality_since: number;
  /** The frontmatter confidence less the vitality's penalty. */
  effective_confidence: number;
}

export interface PhaseChange {
  node_id: string;
  from: Phase;
  to: Phase;
  signals: PhaseSignals;
}

/** The frontmatter fields an evaluation reads (state, target, superseded_by), kept per note version. */
interface LedgerFacts {
  hash: string;
  state: string | null;
  group: string;
  retired: boolean;
}

const ms = (iso: string | null): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

/** When the note was written, as retrieval's recency reads it: updated_at, else created_at, else the file's time. */
export function writtenAt(live: LiveNote): number {
  const m = live.cached.meta;
  return ms(m.updated_at) ?? ms(m.created_at) ?? live.mtime;
}

/** A target as a group key: the target registry's identity (case, separators, plurals do not split a target's uses). */
function targetKey(raw: string): string {
  return targetIdentity(normaliseTarget(raw));
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

export class LedgerPhases {
  private readonly facts = new Map<string, LedgerFacts>();

  constructor(private readonly d: LedgerPhasePorts) {}

  /**
   * Evaluates the ledger entries among `ids` (other notes are passed over); `'all'` evaluates every entry.
   * Returns the phase changes made.
   */
  async evaluate(ids: Iterable<string> | 'all', actor: AuditActor = { kind: 'system', id: null }, now: number = this.d.clock.now()): Promise<PhaseChange[]> {
    const wanted = ids === 'all' ? null : new Set(ids);
    // Most receipts hold no ledger entry: then the vault is not walked at all.
    if (wanted && ![...wanted].some((id) => isLedgerKind(this.d.notes.note(id)?.cached.meta.note_type ?? ''))) return [];
    const entries = this.d.notes.notes().filter((n) => isLedgerKind(n.cached.meta.note_type));
    if (entries.length === 0) return [];
    const targets = wanted ? entries.filter((n) => wanted.has(n.nodeId)) : entries;
    if (targets.length === 0) return [];
    const live = new Set(entries.map((n) => n.nodeId));
    for (const id of this.facts.keys()) if (!live.has(id)) this.facts.delete(id);
    const facts = new Map<string, LedgerFacts>();
    for (const n of entries) {
      const f = await this.factsOf(n);
      if (f) facts.set(n.nodeId, f);
    }
    const groupUses = new Map<string, number>();
    for (const n of entries) {
      const f = facts.get(n.nodeId);
      if (f) groupUses.set(f.group, (groupUses.get(f.group) ?? 0) + this.d.memory.stats.get(n.nodeId).use_count);
    }
    const changes: PhaseChange[] = [];
    const vitalityChanges: { id: string; from: Vitality; to: Vitality }[] = [];
    await this.d.memory.batch(async () => {
      for (const n of targets) {
        const f = facts.get(n.nodeId);
        if (!f) continue;
        const { row, signals, from } = this.step(n, f, groupUses.get(f.group) ?? 0, now);
        const before = this.d.memory.phases.get(n.nodeId);
        if (!before || before.phase !== row.phase || before.phase_since !== row.phase_since || before.vitality !== row.vitality || before.vitality_since !== row.vitality_since || before.first_used_at !== row.first_used_at) {
          await this.d.memory.phases.set(row);
        }
        if (from !== row.phase) changes.push({ node_id: n.nodeId, from, to: row.phase, signals });
        const vFrom = before?.vitality ?? 'active';
        if (vFrom !== row.vitality) vitalityChanges.push({ id: n.nodeId, from: vFrom, to: row.vitality });
      }
    });
    for (const c of changes) {
      await this.d.audit.append({ action: 'ledger.phase', actor, target: c.node_id, data: { from: c.from, to: c.to, ...c.signals } });
    }
    for (const v of vitalityChanges) {
      await this.d.audit.append({ action: 'ledger.vitality', actor, target: v.id, data: { from: v.from, to: v.to } });
    }
    return changes;
  }

  /** The standing of a ledger entry as of `now`; null for a note of another type. */
  standing(live: LiveNote, now: number = this.d.clock.now()): LedgerStanding | null {
    const kind = live.cached.meta.note_type;
    if (!isLedgerKind(kind)) return null;
    const row = this.d.memory.phases.get(live.nodeId);
    const stats = this.d.memory.stats.get(live.nodeId);
    const written = writtenAt(live);
    const last = lastActivity(stats.last_used_at, written);
    const vitality = vitalityAt(last, now);
    return {
      node_id: live.nodeId,
      kind,
      phase: row?.phase ?? 'pattern',
      phase_since: row?.phase_since ?? ms(live.cached.meta.created_at) ?? written,
      vitality,
      vitality_since: vitalitySince(last, vitality),
      effective_confidence: effectiveConfidence(live.cached.meta.confidence, vitality),
    };
  }

  /** One entry's next stored row, its signals and its phase before. */
  private step(n: LiveNote, f: LedgerFacts, groupUses: number, now: number): { row: LedgerPhaseRow; signals: PhaseSignals; from: Phase } {
    const id = n.nodeId;
    const stats = this.d.memory.stats.get(id);
    const before = this.d.memory.phases.get(id);
    const written = writtenAt(n);
    // The first use an evaluation saw; a use before the first evaluation counts from the last one known.
    const firstUsed = before?.first_used_at ?? (stats.use_count > 0 ? stats.last_used_at : null);
    const input: PhaseInput = {
      stated_confidence: n.cached.meta.confidence,
      use_count: stats.use_count,
      ignored_count: stats.ignored_count,
      misleading_count: stats.misleading_count,
      first_used_at: firstUsed,
      last_used_at: stats.last_used_at,
      written_at: written,
      group_uses: groupUses,
      contradicted: this.contradicted(id),
      contested: n.cached.meta.note_type === 'claim' && f.state === 'contested',
      dependants: this.dependants(n),
    };
    const signals = phaseSignals(input, now);
    const from = before?.phase ?? 'pattern';
    const to = nextPhase(from, signals, f.retired);
    const last = lastActivity(stats.last_used_at, written);
    return {
      from,
      signals,
      row: {
        node_id: id,
        phase: to,
        phase_since: to !== from ? now : (before?.phase_since ?? ms(n.cached.meta.created_at) ?? written),
        vitality: signals.vitality,
        vitality_since: vitalitySince(last, signals.vitality),
        first_used_at: firstUsed,
        evaluated_at: now,
      },
    };
  }

  /** An open conflict touches it, or a settled one it lost. */
  private contradicted(id: string): boolean {
    const edges = [...this.d.memory.edges.find({ from: id, type: CONFLICT_EDGE_TYPE }), ...this.d.memory.edges.find({ to: id, type: CONFLICT_EDGE_TYPE })];
    return edges.some((e) => {
      const c = toConflict(e);
      return c.state === 'unreviewed' || c.evidence.resolution?.loser_id === id;
    });
  }

  /** Distinct live notes that rely on it: links to it, depends_on/derived_from/is_example_of into it, supports out of it, co-use ≥ 2. */
  private dependants(n: LiveNote): number {
    const id = n.nodeId;
    const out = new Set<string>();
    const add = (other: string | undefined): void => {
      if (other && other !== id && this.d.notes.note(other) !== null) out.add(other);
    };
    for (const p of this.d.notes.backlinks(n.path)) add(this.d.notes.note(p)?.nodeId);
    for (const e of this.d.memory.edges.find({ to: id })) if (DEPENDS_INTO.has(e.type)) add(e.from_id);
    for (const e of this.d.memory.edges.find({ from: id })) if (DEPENDS_OUT.has(e.type)) add(e.to_id);
    for (const c of this.d.memory.coactivation.of(id)) if (c.count >= CO_USE_DEPENDANT_MIN) add(c.other);
    return out.size;
  }

  /** State, group and retirement from the note's frontmatter, read once per version of the note. */
  private async factsOf(n: LiveNote): Promise<LedgerFacts | null> {
    const known = this.facts.get(n.nodeId);
    if (known && known.hash === n.contentHash) return known;
    let fm: Record<string, unknown>;
    try {
      fm = (await this.d.notes.parse(n.path)).frontmatter;
    } catch (err) {
      this.d.logger.warn('ledger phases: a note could not be read', { path: n.path, error: String(err) });
      return null;
    }
    const kind = n.cached.meta.note_type as LedgerKind;
    const state = text(fm[LEDGER_FIELDS.state])?.toLowerCase() ?? null;
    const target = kind === 'decision' ? text(fm[LEDGER_FIELDS.target]) : null;
    const supersededBy = fm[LEDGER_FIELDS.supersededBy];
    const superseded = Array.isArray(supersededBy) ? supersededBy.some((x) => text(x) !== null) : text(supersededBy) !== null;
    const f: LedgerFacts = {
      hash: n.contentHash,
      state,
      group: target && targetKey(target) ? `decision:${targetKey(target)}` : `${kind}:${n.cached.meta.namespace}`,
      retired: isRetired(kind, state, superseded),
    };
    this.facts.set(n.nodeId, f);
    return f;
  }
}
