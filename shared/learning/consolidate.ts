/**
 * Consolidation: turns recent working memory into lasting structure. One run, over its units:
 *
 * 1. Units: a task (every retrieval made for it, plus its outcome) or an agent's task-less retrievals of
 *    one UTC day. `{task}` consolidates that task; `{agent}` the tasks it retrieved for and its task-less
 *    days within the last 24 h; neither: every unit with a retrieval in the last 24 h.
 * 2. Reinforce: among a unit's items used ≥ REINFORCE_MIN_USES times (working-memory.ts says what "used"
 *    means; the REINFORCE_MAX_ITEMS most used), every pair's `related_to` edge gains REINFORCE_AMOUNT
 *    (created at that weight when absent, provenance rule; edges a person made are left alone). A pair is
 *    reinforced once per unit (consolidation-state.ts).
 * 3. Hypotheses cited by the task's outcome are recorded; those that qualify are promoted (promote.ts).
 * 4. Concepts are maintained (concepts.ts), then summaries refreshed where material changed (summaries.ts).
 * Idempotent: a second run over the same material changes nothing. Audited `consolidate` with counts.
 */
import type { Sampler } from './reflection-wording';
import type { LearningPorts } from './learning-ports';
import { LithosError } from '../errors';
import type { AuditActor } from '../governance/audit';
import type { Receipt } from '../retrieval/types';
import { MAX_RECEIPTS_LIMIT } from '../retrieval/receipts';
import { usedByFeedback } from './feedback';
import { receiptsOnTask } from './working-memory';
import { loadState, pairKey, saveState, type ConsolidationState } from './consolidation-state';
import { build, AGENT_WORKING_MEMORY_WINDOW_MS } from './working-memory';
import { promoteHypotheses, recordHypothesisUse } from './promote';
import { maintainConcepts } from './concepts';
import { refreshSummaries } from './summaries';
import type { Summarizer } from './summarizer';

export const REINFORCE_MIN_USES = 2;
export const REINFORCE_AMOUNT = 0.05;
export const REINFORCE_MAX_ITEMS = 20;
/** Unit marks older than this are forgotten (their receipts have long been consolidated). */
export const UNIT_RETENTION_MS = 90 * 24 * 3600 * 1000;
const DAY = 24 * 3600 * 1000;

/** What a consolidation run uses. */
export type ConsolidatePorts = Pick<LearningPorts, 'notes' | 'search' | 'receipts' | 'memory' | 'audit' | 'policy' | 'governance' | 'coordination' | 'clock' | 'blobs' | 'logger'>;

export interface ConsolidateOptions {
  task?: string;
  agent?: string;
  /** ms since epoch; default the clock's now. */
  now?: number;
  /** Who asked (the audit entry's actor); default the system. */
  actor?: AuditActor;
  summarizer: Summarizer;
  /** The calling bridge's sampling (relay), for the reflection that follows (reflection-wording.ts). */
  sampler?: Sampler;
}

export interface ConsolidationReport {
  units: string[];
  edges_reinforced: number;
  edges_created: number;
  hypotheses_promoted: string[];
  concepts_created: string[];
  concepts_updated: string[];
  concept_members_linked: number;
  summaries_refreshed: string[];
}

interface Unit {
  key: string;
  task: string | null;
  receipts: Receipt[];
}

const dayOf = (ts: string): string => ts.slice(0, 10);

async function unitsFor(d: Pick<LearningPorts, 'receipts' | 'coordination'>, opts: ConsolidateOptions, now: number): Promise<Unit[]> {
  const since = now - AGENT_WORKING_MEMORY_WINDOW_MS;
  const taskUnit = async (task: string): Promise<Unit> => ({
    key: `task:${task}`,
    task,
    receipts: receiptsOnTask(d, task, (await d.receipts.query({ task, until: now + 1, limit: MAX_RECEIPTS_LIMIT })).receipts),
  });
  if (opts.task) {
    const unit = await taskUnit(opts.task);
    // Retrieval accepts any task id, so a task the coordination store does not know may still have receipts.
    if (unit.receipts.length === 0 && !d.coordination.task(opts.task)) {
      throw new LithosError('not_found', `No task ${opts.task}: neither a coordination task nor any retrieval made for it.`, { task: opts.task });
    }
    return [unit];
  }
  const recent = (await d.receipts.query({ agent: opts.agent, since, until: now + 1, limit: MAX_RECEIPTS_LIMIT })).receipts;
  if (opts.agent && recent.length === 0 && !d.coordination.agent(opts.agent) && (await d.receipts.query({ agent: opts.agent, limit: 1 })).receipts.length === 0) {
    throw new LithosError('not_found', `No agent ${opts.agent}: not registered and no retrieval made by it.`, { agent: opts.agent });
  }
  const tasks = new Set<string>();
  const days = new Map<string, Unit>();
  for (const r of recent) {
    if (r.task_id) {
      tasks.add(r.task_id);
      continue;
    }
    const key = `agent:${r.agent_id ?? 'human'}:${dayOf(r.ts)}`;
    let u = days.get(key);
    if (!u) days.set(key, (u = { key, task: null, receipts: [] }));
    u.receipts.push(r);
  }
  // A day's unit covers the whole day, not only the part inside the window.
  for (const u of days.values()) {
    const start = Date.parse(`${u.key.slice(-10)}T00:00:00Z`);
    const agent = u.receipts[0].agent_id;
    const all = (await d.receipts.query({ agent: agent ?? undefined, since: start, until: Math.min(start + DAY, now + 1), limit: MAX_RECEIPTS_LIMIT })).receipts;
    u.receipts = all.filter((r) => r.task_id === null && r.agent_id === agent);
  }
  const out: Unit[] = [];
  for (const t of [...tasks].sort()) out.push(await taskUnit(t));
  out.push(...[...days.values()].sort((a, b) => (a.key < b.key ? -1 : 1)));
  return out;
}

async function reinforce(d: Pick<LearningPorts, 'coordination' | 'memory' | 'notes'>, state: ConsolidationState, unit: Unit, now: number, report: ConsolidationReport, edgeIds: string[]): Promise<void> {
  const outcome = unit.task ? d.coordination.outcome(unit.task) : null;
  const wm = build(null, unit.task, unit.receipts, outcome ? [outcome] : [], (id) => usedByFeedback(d, id));
  const items = wm.items.filter((i) => i.used >= REINFORCE_MIN_USES && d.notes.note(i.id)?.nodeId === i.id).slice(0, REINFORCE_MAX_ITEMS);
  const mark = (state.units[unit.key] ??= { pairs: [], at: now });
  const done = new Set(mark.pairs);
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const [a, b] = items[i].id < items[j].id ? [items[i].id, items[j].id] : [items[j].id, items[i].id];
      const key = pairKey(a, b);
      if (done.has(key)) continue;
      done.add(key);
      mark.pairs.push(key);
      mark.at = now;
      const existing = [...d.memory.edges.find({ from: a, to: b, type: 'related_to' }), ...d.memory.edges.find({ from: b, to: a, type: 'related_to' })];
      if (existing.some((e) => e.provenance_type === 'human')) continue;
      const e = existing[0];
      const row = await d.memory.edges.upsert(
        e
          ? { ...e, weight: Math.min(1, e.weight + REINFORCE_AMOUNT) }
          : {
              from_id: a,
              to_id: b,
              type: 'related_to',
              weight: REINFORCE_AMOUNT,
              namespace: d.notes.note(a)?.cached.meta.namespace ?? 'default',
              provenance_actor: 'consolidate',
              provenance_type: 'rule',
              evidence: { rule: 'consolidate', unit: unit.key },
              conflict_state: null,
            },
      );
      if (e) report.edges_reinforced++;
      else report.edges_created++;
      edgeIds.push(row.edge_id);
    }
  }
  if (outcome) recordHypothesisUse(d, state, outcome.task_id, outcome.cited_nodes, outcome.misleading_nodes);
}

export async function consolidate(d: ConsolidatePorts, opts: ConsolidateOptions): Promise<ConsolidationReport> {
  const now = opts.now ?? d.clock.now();
  const state = await loadState(d.blobs, d.logger);
  const report: ConsolidationReport = {
    units: [],
    edges_reinforced: 0,
    edges_created: 0,
    hypotheses_promoted: [],
    concepts_created: [],
    concepts_updated: [],
    concept_members_linked: 0,
    summaries_refreshed: [],
  };
  const edgeIds: string[] = [];
  const units = await unitsFor(d, opts, now);
  await d.memory.batch(async () => {
    for (const u of units) {
      report.units.push(u.key);
      await reinforce(d, state, u, now, report, edgeIds);
    }
  });
  report.hypotheses_promoted = await promoteHypotheses(d, state);
  const concepts = await maintainConcepts(d);
  report.concepts_created = concepts.created;
  report.concepts_updated = concepts.updated;
  report.concept_members_linked = concepts.members_linked;
  report.summaries_refreshed = await refreshSummaries(d, opts.summarizer);
  for (const [k, v] of Object.entries(state.units)) if (now - v.at > UNIT_RETENTION_MS) delete state.units[k];
  state.last_run = now;
  await saveState(d.blobs, state);
  await d.audit.append({
    action: 'consolidate',
    actor: opts.actor ?? { kind: 'system', id: null },
    target: opts.task ? `task:${opts.task}` : opts.agent ? `agent:${opts.agent}` : null,
    data: {
      units: report.units.length,
      edges_reinforced: report.edges_reinforced,
      edges_created: report.edges_created,
      edge_ids: edgeIds.slice(0, 200),
      hypotheses_promoted: report.hypotheses_promoted.length,
      concepts_created: report.concepts_created.length,
      concepts_updated: report.concepts_updated.length,
      concept_members_linked: report.concept_members_linked,
      summaries_refreshed: report.summaries_refreshed.length,
      rejected_sparse_clusters: concepts.rejected_sparse,
    },
  });
  return report;
}
