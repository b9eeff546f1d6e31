/**
 * Decay: what is not used fades, but never to nothing. Salience falls toward its note type's floor with
 * the type's half-life (model/note-types.ts), rule/agent edges lose weight and are pruned below
 * edge_prune_below; human edges and conflict edges never decay. The half-lives and the prune threshold
 * are the vault's in force at the run (the tunables: defaults in constants.ts DECAY).
 * Each run decays by the time elapsed since the last run (stored in memory.sqlite), so running twice at
 * the same `now` changes nothing the second time.
 */
import type { LearningPorts } from './learning-ports';
import { COACTIVATION_MAX_AGE_DAYS, DAY_MS, FEEDBACK_MARK_MAX_AGE_DAYS } from './constants';
import { TAG_AFFINITY } from '../retrieval/constants';
import { TERM_ASSOC } from '../retrieval/term-assoc';
import { FEEDBACK_MARK_PREFIX } from './feedback';
import { CONCEPT_MIN_COACTIVATION } from './concepts';
import { noteTypeRow } from '../model/note-types';

export const DECAY_MARK = 'decay:last';

export interface DecayReport {
  /** False when there was nothing to decay yet (the baseline is recorded) and when no time has passed. */
  ran: boolean;
  elapsed_ms: number;
  salience: number;
  edges_decayed: number;
  edges_pruned: number;
  /** Co-activation pairs forgotten: seen too rarely to form a concept, and not for COACTIVATION_MAX_AGE_DAYS. */
  coactivation_pruned: number;
  /** Feedback marks of receipts older than FEEDBACK_MARK_MAX_AGE_DAYS, forgotten. */
  feedback_marks_pruned: number;
  /** Term–tag affinity pairs forgotten: shown too rarely to say anything, and not for TAG_AFFINITY.max_age_days. */
  affinity_pruned: number;
  /** Term-association terms forgotten: shown too rarely, and not counted for TERM_ASSOC.max_age_days. */
  assoc_pruned: number;
  /** Episodic events archived and pruned by the same pass (event-ageing.ts). */
  events_archived: number;
  events_pruned: number;
}

const halve = (elapsed: number, halfLifeDays: number): number => Math.pow(2, -elapsed / (halfLifeDays * DAY_MS));
// Fine enough that a run every minute still moves a weight of 0.03 (about 5e-7 a minute at a 30-day half-life).
const round = (x: number): number => Math.round(x * 1e9) / 1e9;

/** Edges decay unless a person made them or they carry a conflict (conflicts are resolved, never faded). */
const decays = (e: { provenance_type: string; type: string; conflict_state: string | null }): boolean =>
  e.provenance_type !== 'human' && e.type !== 'contradicts' && e.conflict_state === null;

export async function runDecay(d: Pick<LearningPorts, 'memory' | 'tunables' | 'notes' | 'audit'>, now: number): Promise<DecayReport> {
  const mem = d.memory;
  await d.tunables.refresh();
  const k = d.tunables.get().decay;
  const report: DecayReport = { ran: false, elapsed_ms: 0, salience: 0, edges_decayed: 0, edges_pruned: 0, coactivation_pruned: 0, feedback_marks_pruned: 0, affinity_pruned: 0, assoc_pruned: 0, events_archived: 0, events_pruned: 0 };
  let last = mem.learned.mark(DECAY_MARK) as { at: number } | null;
  const stats = mem.stats.all();
  const edges = mem.edges.find({}).filter(decays);
  if (last === null) {
    if (stats.length === 0 && edges.length === 0) return report; // nothing learned yet: no baseline worth writing
    // Learned since a first open that had nothing to decay (a short session that closed before any scheduled
    // run): decay from the latest learning, so that gap is not skipped — and nothing is decayed twice.
    // A loop, not Math.max(...all): spreading 125k+ values overflows the call stack.
    let learned = 0;
    for (const st of stats) learned = Math.max(learned, st.last_used_at ?? 0); // a retrieval teaches nothing: not learning
    for (const e of edges) learned = Math.max(learned, e.updated_at);
    if (!(learned > 0 && learned < now)) {
      await mem.learned.setMark(DECAY_MARK, { at: now });
      return report;
    }
    last = { at: learned };
  }
  const elapsed = now - last.at;
  if (elapsed < 0) {
    // The mark is in the future: the clock was wrong (ahead) at an earlier run and has been corrected.
    // Start again from now; otherwise decay would stop until real time caught up with the wrong date.
    await mem.learned.setMark(DECAY_MARK, { at: now });
    return report;
  }
  if (!(elapsed > 0)) return report;
  report.ran = true;
  report.elapsed_ms = elapsed;
  await mem.batch(async () => {
    for (const s of stats) {
      const type = noteTypeRow(d.notes.note(s.node_id)?.cached.meta.note_type ?? 'observation');
      // Spaced repetition needs no run: its retrievability is read from the time since the last use.
      if (s.salience <= type.floor) continue;
      const v = round(type.floor + (s.salience - type.floor) * halve(elapsed, type.half_life_days));
      if (v === s.salience) continue;
      report.salience++;
      await mem.stats.update(s.node_id, { salience: v });
    }
    for (const e of edges) {
      // Unused since the later of the last run and its last reinforcement.
      const dt = now - Math.max(last.at, e.updated_at);
      if (!(dt > 0)) continue;
      const w = round(e.weight * halve(dt, k.edge_half_life_days));
      if (w < k.edge_prune_below) {
        await mem.edges.delete(e.edge_id);
        report.edges_pruned++;
      } else if (w !== e.weight) {
        await mem.edges.upsert({ ...e, weight: w });
        report.edges_decayed++;
      }
    }
    report.coactivation_pruned = await mem.coactivation.prune(now - COACTIVATION_MAX_AGE_DAYS * DAY_MS, CONCEPT_MIN_COACTIVATION);
    report.affinity_pruned = await mem.learned.pruneTagAffinity(now - TAG_AFFINITY.max_age_days * DAY_MS, TAG_AFFINITY.prune_below);
    report.assoc_pruned = await mem.learned.assoc.prune(now - TERM_ASSOC.max_age_days * DAY_MS, TERM_ASSOC.prune_below);
    const oldMarks = mem
      .learned.marksWithPrefix(FEEDBACK_MARK_PREFIX)
      .filter((m) => {
        const at = (m.value as { at?: unknown } | null)?.at;
        return typeof at === 'number' && at < now - FEEDBACK_MARK_MAX_AGE_DAYS * DAY_MS;
      })
      .map((m) => m.key);
    await mem.learned.deleteMarks(oldMarks);
    report.feedback_marks_pruned = oldMarks.length;
    await mem.learned.setMark(DECAY_MARK, { at: now });
  });
  if (report.salience + report.edges_decayed + report.edges_pruned + report.coactivation_pruned + report.feedback_marks_pruned + report.affinity_pruned + report.assoc_pruned === 0) return report;
  await d.audit.append({
    action: 'decay',
    actor: { kind: 'system', id: null },
    target: null,
    data: {
      elapsed_ms: elapsed,
      salience: report.salience,
      edges_decayed: report.edges_decayed,
      edges_pruned: report.edges_pruned,
      coactivation_pruned: report.coactivation_pruned,
      feedback_marks_pruned: report.feedback_marks_pruned,
      affinity_pruned: report.affinity_pruned,
      assoc_pruned: report.assoc_pruned,
    },
  });
  return report;
}
