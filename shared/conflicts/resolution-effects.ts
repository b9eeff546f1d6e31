/**
 * What each conflict resolution does to the notes and learned signals (docs/contradictions.md →
 * resolution semantics); ConflictService.resolve checks the request, calls one of these and audits.
 */
import type { ConflictPorts } from './conflict-ports';
import type { EdgeRow } from '../stores/memory-types';
import { QUERY_CLASSES } from '../retrieval/types';
import type { LiveNote } from '../vault/note-indexer';
import { CONFLICT_EDGE_TYPE, type Conflict } from '../stores/conflict-edges';
import { MERGED_EDGE_WEIGHT, REFUTED_EDGE_FACTOR, REFUTED_PRIOR_DROP, REFUTED_SALIENCE_DROP, REFUTED_SALIENCE_FLOOR } from './constants';
import type { ConflictActor, ResolutionChange } from '../stores/conflict-edges';
import { LEDGER_FIELDS } from '../model/ledger';

/** Winner's `supersedes` gains the loser's id; the loser is archived (its status callout follows). */
export async function supersede(d: Pick<ConflictPorts, 'notes'>, winner: LiveNote, loser: LiveNote, changes: ResolutionChange[]): Promise<void> {
  const winnerId = winner.nodeId;
  const loserId = loser.nodeId;
  const before = [...winner.cached.meta.supersedes];
  if (!before.includes(loserId)) {
    await d.notes.updateFrontmatter(winner.path, (fm) => {
      const list = Array.isArray(fm.supersedes) ? fm.supersedes.filter((x) => typeof x === 'string') : [];
      if (!list.includes(loserId)) list.push(loserId);
      fm.supersedes = list;
    });
    changes.push({ node: winnerId, what: 'frontmatter.supersedes', before, after: [...before, loserId] });
  }
  const status = loser.cached.meta.status;
  if (status !== 'archived') {
    await d.notes.updateFrontmatter(loser.path, (fm) => {
      fm.status = 'archived';
    });
    changes.push({ node: loserId, what: 'frontmatter.status', before: status, after: 'archived' });
  }
  if (loser.cached.meta.note_type === 'decision') {
    // A decision also leaves its target (docs/ledger.md): its ledger state says by what.
    let before: unknown = null;
    await d.notes.updateFrontmatter(loser.path, (fm) => {
      before = fm[LEDGER_FIELDS.state] ?? null;
      fm[LEDGER_FIELDS.state] = 'superseded';
      fm[LEDGER_FIELDS.supersededBy] = winnerId;
    });
    changes.push({ node: loserId, what: 'frontmatter.state', before, after: 'superseded' });
  }
}

/** Lowers the loser: salience, its per-class priors, and the typed edges that lead to it (constants in constants.ts). */
export async function refute(d: Pick<ConflictPorts, 'memory' | 'tunables'>, loserId: string, changes: ResolutionChange[]): Promise<void> {
  const mem = d.memory;
  const s = mem.stats.get(loserId);
  const salience = Math.max(REFUTED_SALIENCE_FLOOR, s.salience - REFUTED_SALIENCE_DROP);
  const priors: Record<string, number> = { ...s.per_queryclass_priors };
  // Kept in ±class_prior_cap like every per-class adjustment (a note refuted twice sits at the cap, not below it).
  const cap = d.tunables.get().feedback.class_prior_cap;
  for (const qc of QUERY_CLASSES) priors[qc] = Math.max(-cap, (priors[qc] ?? 0) - REFUTED_PRIOR_DROP);
  await mem.stats.update(loserId, { salience, per_queryclass_priors: priors });
  changes.push({ node: loserId, what: 'stats.salience', before: s.salience, after: salience });
  changes.push({ node: loserId, what: 'stats.per_queryclass_priors', before: s.per_queryclass_priors, after: priors });
  for (const e of mem.edges.find({ to: loserId })) {
    if (e.type === CONFLICT_EDGE_TYPE) continue;
    const weight = e.weight * REFUTED_EDGE_FACTOR;
    await mem.edges.upsert({ ...edgeInput(e), weight });
    changes.push({ node: loserId, what: `edge.weight ${e.edge_id} (${e.type} from ${e.from_id})`, before: e.weight, after: weight });
  }
}

/** The merge note is `derived_from` both ends (its own end excluded when it is one of them). */
export async function merge(d: Pick<ConflictPorts, 'memory'>, c: Conflict, merge: LiveNote, resolver: ConflictActor, changes: ResolutionChange[]): Promise<void> {
  const mergeId = merge.nodeId;
  for (const end of [c.a, c.b]) {
    if (end === mergeId) continue;
    const prior = d.memory.edges.find({ from: mergeId, to: end, type: 'derived_from' })[0];
    const row = await d.memory.edges.upsert({
      from_id: mergeId,
      to_id: end,
      type: 'derived_from',
      weight: Math.max(prior?.weight ?? 0, MERGED_EDGE_WEIGHT),
      namespace: merge.cached.meta.namespace,
      provenance_actor: resolver.id ?? resolver.kind,
      provenance_type: resolver.kind,
      evidence: { merged_conflict: c.edge_id },
      conflict_state: null,
    });
    changes.push({ node: end, what: `edge ${row.edge_id} derived_from (from the merge note)`, before: prior?.weight ?? null, after: row.weight });
  }
}

/** An edge as upsertEdge takes it (its timestamps are the store's). */
export function edgeInput(e: EdgeRow) {
  const { created_at: _c, updated_at: _u, ...rest } = e;
  return rest;
}
