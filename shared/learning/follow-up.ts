/**
 * Implicit signal without any feedback call: follow-up retrieval locality. When a retrieval in a task lands
 * on the notes the task's previous retrieval returned, or right next to them (a wiki-link or a typed edge
 * either way), those notes get a weak positive (FOLLOW_UP.salience): the agent is still working with them.
 */
import type { LearningPorts } from './learning-ports';
import type { Receipt } from '../retrieval/types';
import { FOLLOW_UP } from './constants';

interface Seen {
  receipt_id: string;
  nodes: string[];
}

export interface FollowUpResult {
  previous_receipt: string;
  /** Final nodes also in the previous receipt. */
  overlap: string[];
  /** Final nodes one link or edge away from the previous receipt's nodes. */
  near: string[];
}

/** Remembers each task's latest receipt (bounded), falling back to the receipt log after a restart. */
export class FollowUpTracker {
  private readonly last = new Map<string, Seen>();

  async previous(d: Pick<LearningPorts, 'receipts'>, receipt: Receipt): Promise<Seen | null> {
    const task = receipt.task_id!;
    const hit = this.last.get(task);
    if (hit) return hit;
    const logged = (await d.receipts.query({ task, limit: 2 })).receipts.find((r) => r.receipt_id !== receipt.receipt_id);
    return logged ? { receipt_id: logged.receipt_id, nodes: logged.final_nodes.map((n) => n.id) } : null;
  }

  remember(receipt: Receipt): void {
    const task = receipt.task_id!;
    this.last.delete(task);
    this.last.set(task, { receipt_id: receipt.receipt_id, nodes: receipt.final_nodes.map((n) => n.id) });
    if (this.last.size > FOLLOW_UP.remembered_tasks) this.last.delete(this.last.keys().next().value as string);
  }
}

function neighbours(d: Pick<LearningPorts, 'notes' | 'memory'>, id: string): Set<string> {
  const out = new Set<string>();
  const note = d.notes.note(id);
  if (note && note.nodeId === id) {
    for (const l of d.notes.links(note.path)) {
      const t = l.targetPath ? d.notes.note(l.targetPath) : null;
      if (t) out.add(t.nodeId);
    }
    for (const p of d.notes.backlinks(note.path)) {
      const s = d.notes.note(p);
      if (s) out.add(s.nodeId);
    }
  }
  for (const e of d.memory.edges.find({ from: id })) if (e.type !== 'contradicts') out.add(e.to_id);
  for (const e of d.memory.edges.find({ to: id })) if (e.type !== 'contradicts') out.add(e.from_id);
  out.delete(id);
  return out;
}

/** Applies the follow-up signal for a just-recorded receipt of a task; null when it is the task's first. */
export async function applyFollowUp(d: Pick<LearningPorts, 'receipts' | 'notes' | 'memory' | 'audit'>, tracker: FollowUpTracker, receipt: Receipt): Promise<FollowUpResult | null> {
  if (!receipt.task_id) return null;
  const prev = await tracker.previous(d, receipt);
  tracker.remember(receipt);
  if (!prev) return null;
  const before = new Set(prev.nodes);
  const around = new Set<string>();
  for (const id of prev.nodes) for (const n of neighbours(d, id)) around.add(n);
  const finals = [...new Set(receipt.final_nodes.map((n) => n.id))];
  const overlap = finals.filter((id) => before.has(id));
  const near = finals.filter((id) => !before.has(id) && around.has(id));
  if (overlap.length + near.length === 0) return { previous_receipt: prev.receipt_id, overlap, near };
  const mem = d.memory;
  await mem.batch(async () => {
    for (const id of [...overlap, ...near]) {
      const s = mem.stats.get(id);
      await mem.stats.update(id, { salience: Math.round(Math.min(1, s.salience + FOLLOW_UP.salience) * 1e6) / 1e6 });
    }
  });
  await d.audit.append({
    action: 'feedback',
    actor: receipt.agent_id ? { kind: 'agent', id: receipt.agent_id } : { kind: 'system', id: null },
    target: receipt.receipt_id,
    data: { signal: 'follow_up', task: receipt.task_id, previous_receipt: prev.receipt_id, overlap: overlap.length, near: near.length },
  });
  return { previous_receipt: prev.receipt_id, overlap, near };
}
