/**
 * Working memory: the notes an agent, or everyone on a task, retrieved and used lately, read from the
 * receipt log (retrieval/receipts.ts) and the task outcome lithos_task_complete recorded.
 *
 * - task working memory: every retrieval made for the task (any agent), plus the notes its outcome cites;
 * - agent working memory: the agent's retrievals in the last 24 h (any task), plus what it cited on the
 *   tasks it completed in that time;
 * - both: the agent's retrievals for that task.
 *
 * "Used": a receipt whose task outcome names it (receipt_id) counts the cited notes as used, and one that
 * got lithos_feedback the notes that feedback found used (never a misleading one). A receipt nobody gave
 * feedback on counts no use: being shown is no evidence a note helped, so consolidation, which builds on
 * uses, learns nothing from it. Cited notes of an outcome without a matching receipt add one use each.
 */
import { LithosError } from '../errors';
import type { LearningPorts } from './learning-ports';
import type { TaskOutcomeRow } from '../coordination/coordination-types';
import type { Receipt } from '../retrieval/types';
import { MAX_RECEIPTS_LIMIT } from '../retrieval/receipts';
import { usedByFeedback } from './feedback';

/** The agent working memory covers this much time. */
export const AGENT_WORKING_MEMORY_WINDOW_MS = 24 * 3600 * 1000;

export interface WorkingItem {
  id: string;
  /** Times it was a final node of one of the receipts. */
  retrieved: number;
  /** Times it was used (see the module comment). */
  used: number;
  /** Receipts that returned it, newest first. */
  receipts: string[];
  /** ISO time it was last retrieved or cited. */
  last_at: string;
}

export interface WorkingMemory {
  agent: string | null;
  task: string | null;
  /** Receipts read (newest first). */
  receipt_ids: string[];
  /** Most used first, then most retrieved, then id. */
  items: WorkingItem[];
}

export interface WorkingMemoryQuery {
  agent?: string;
  task?: string;
  /** ms since epoch. */
  now: number;
}

/**
 * A registered task's retrievals made by agents on it (or the person): naming a task on a retrieval is not
 * joining it, so an outsider's receipts neither show in its working memory nor shape its consolidation. A
 * task id no coordination task has (retrieval accepts any label) keeps every receipt.
 */
export function receiptsOnTask(d: Pick<LearningPorts, 'coordination'>, task: string, receipts: readonly Receipt[]): Receipt[] {
  if (!d.coordination.task(task)) return [...receipts];
  const on = new Map<string, boolean>();
  return receipts.filter((r) => {
    if (r.agent_id === null) return true;
    let yes = on.get(r.agent_id);
    if (yes === undefined) on.set(r.agent_id, (yes = d.coordination.tasksOf(r.agent_id).includes(task)));
    return yes;
  });
}

/** The working memory for an agent, a task or both; at least one is required. */
export async function workingMemory(d: Pick<LearningPorts, 'receipts' | 'coordination' | 'memory'>, q: WorkingMemoryQuery): Promise<WorkingMemory> {
  if (!q.agent && !q.task) throw new LithosError('invalid_argument', 'Working memory belongs to an agent or a task: give agent, task or both.');
  const since = q.task ? undefined : q.now - AGENT_WORKING_MEMORY_WINDOW_MS;
  const res = await d.receipts.query({ agent: q.agent, task: q.task, since, until: q.now + 1, limit: MAX_RECEIPTS_LIMIT });
  if (q.task) res.receipts = receiptsOnTask(d, q.task, res.receipts);
  const outcomes = outcomesFor(d, res.receipts, q, since);
  return build(q.agent ?? null, q.task ?? null, res.receipts, outcomes, (id) => usedByFeedback(d, id));
}

/** Completed-task outcomes that belong to this working memory. */
function outcomesFor(d: Pick<LearningPorts, 'coordination'>, receipts: readonly Receipt[], q: WorkingMemoryQuery, since: number | undefined): TaskOutcomeRow[] {
  const tasks = new Set<string>();
  if (q.task) tasks.add(q.task);
  else for (const r of receipts) if (r.task_id) tasks.add(r.task_id);
  const out: TaskOutcomeRow[] = [];
  for (const t of [...tasks].sort()) {
    const o = d.coordination.outcome(t);
    if (!o) continue;
    if (q.agent && o.agent_id !== q.agent) continue;
    if (since !== undefined && o.recorded_at < since) continue;
    out.push(o);
  }
  return out;
}

/** Pure: the working memory of these receipts and outcomes (also used by consolidation per unit). */
export function build(
  agent: string | null,
  task: string | null,
  receipts: readonly Receipt[],
  outcomes: readonly TaskOutcomeRow[],
  fedUsed: (receiptId: string) => readonly string[] | null = () => null,
): WorkingMemory {
  const items = new Map<string, WorkingItem>();
  const item = (id: string, at: string): WorkingItem => {
    let it = items.get(id);
    if (!it) items.set(id, (it = { id, retrieved: 0, used: 0, receipts: [], last_at: at }));
    if (at > it.last_at) it.last_at = at;
    return it;
  };
  const byReceipt = new Map<string, TaskOutcomeRow>();
  for (const o of outcomes) if (o.receipt_id) byReceipt.set(o.receipt_id, o);
  const matched = new Set<TaskOutcomeRow>();
  for (const r of receipts) {
    const explicit = byReceipt.get(r.receipt_id);
    if (explicit) matched.add(explicit);
    const fed = explicit ? null : fedUsed(r.receipt_id);
    for (const n of r.final_nodes) {
      const it = item(n.id, r.ts);
      it.retrieved++;
      if (!it.receipts.includes(r.receipt_id)) it.receipts.push(r.receipt_id);
      if (explicit ? explicit.cited_nodes.includes(n.id) : fed ? fed.includes(n.id) : false) it.used++;
    }
  }
  for (const o of outcomes) {
    const at = new Date(o.recorded_at).toISOString();
    if (matched.has(o)) {
      // Cited notes the receipt did not return still count: the agent found them another way.
      const shown = new Set(receipts.find((r) => r.receipt_id === o.receipt_id)?.final_nodes.map((n) => n.id));
      for (const id of o.cited_nodes) if (!shown.has(id)) item(id, at).used++;
    } else {
      for (const id of o.cited_nodes) item(id, at).used++;
    }
  }
  const list = [...items.values()].sort((a, b) => b.used - a.used || b.retrieved - a.retrieved || (a.id < b.id ? -1 : 1));
  return { agent, task, receipt_ids: receipts.map((r) => r.receipt_id), items: list };
}
