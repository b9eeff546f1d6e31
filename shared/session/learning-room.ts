/**
 * What memory learns, as a session's viewer may take part in it: feedback on the receipts it may report on,
 * the learned signals of notes it may see, the quarantine list, working memory and consolidation, each with
 * the notes it may not see left out (counts included, so none reveals a hidden note).
 */
import type { Sampler } from '../learning/reflection-wording';
import { LithosError } from '../errors';
import type { ConsolidationReport } from '../learning/consolidate';
import { checkFeedbackNodes, feedbackMark, type FeedbackResult } from '../learning/feedback';
import type { QuarantinedNote } from '../learning/quarantine';
import type { LedgerStanding } from '../learning/ledger-phases';
import type { WorkingItem } from '../learning/working-memory';
import type { Logger } from '../ports';
import type { Receipt } from '../retrieval/types';
import type { NodeStats } from '../stores/memory-types';
import type { LiveNote } from '../vault/note-indexer';
import type { NoteRef, NotesRoom } from './notes-room';
import type { ReceiptsRoom } from './receipts-room';
import type { Services } from './services';
import type { SessionScope } from './session-scope';

export interface FeedbackPlanInput {
  receipts: Receipt[];
  /** Every cited/misleading node must be among the final nodes of one of the receipts (else invalid_argument). */
  strict: boolean;
  cited: string[];
  misleading: string[];
  output_text?: string;
  accepted?: boolean;
  /** Recorded with the feedback: the agent, or null for the person. */
  agent: string | null;
  task: string | null;
}

export interface PlannedFeedback {
  receipts: Receipt[];
  /** Applies the feedback to each receipt (each at most once, ever). */
  apply(): Promise<FeedbackResult[]>;
}

/** lithos_feedback's arguments: notes named by id, path, title or alias. */
export interface FeedbackRequest {
  receipt_id: string;
  cited?: string[];
  misleading?: string[];
  output_text?: string;
  accepted?: boolean;
  task_id?: string;
}

/** A note's learned signals, its typed edges counted only where the other end is a note the viewer may see. */
export interface VisibleNodeStats {
  note: LiveNote;
  stats: NodeStats;
  edges: { out: number; in: number; by_type: Record<string, { out: number; in: number }> };
}

export interface VisibleWorkingMemory {
  agent: string | null;
  task: string | null;
  /** Only notes the viewer may see, most used first. */
  items: (WorkingItem & { note: LiveNote })[];
}

/** A consolidation run's report with the notes the viewer may not see left out. */
export type VisibleConsolidation = Omit<ConsolidationReport, 'units'> & { units: number };

export class LearningRoom {
  constructor(
    private readonly services: Services,
    private readonly who: SessionScope,
    private readonly notes: NotesRoom,
    private readonly receipts: ReceiptsRoom,
    private readonly logger: Logger,
  ) {}

  /**
   * A receipt the caller may give feedback on: one it may see (not_found otherwise) that is its own or of a
   * task it is on (forbidden otherwise). Feedback counts once per receipt: another agent giving it would
   * spend (and could skew) what the retrieving agent learns.
   */
  async reportable(receiptId: string): Promise<Receipt> {
    const r = await this.receipts.get(receiptId);
    if (!this.mayReport(r)) {
      throw new LithosError('forbidden', `Receipt ${receiptId} is another agent's retrieval${r.task_id ? ` (task ${r.task_id}, which you are not on)` : ''}: give feedback on your own receipts.`, { receipt_id: receiptId });
    }
    return r;
  }

  /**
   * Whether this caller may give feedback on a receipt it got through its session and none has been given yet;
   * told only to a caller who could give it (the panels' "give feedback" prompt).
   */
  awaitsFeedback(receipt: Pick<Receipt, 'receipt_id' | 'agent_id' | 'task_id'>): boolean {
    return this.mayReport(receipt) && this.services.learning.memory.learned.mark(feedbackMark(receipt.receipt_id)) === null;
  }

  private mayReport(r: Pick<Receipt, 'agent_id' | 'task_id'>): boolean {
    const c = this.who.caller;
    if (c.kind === 'human' || r.agent_id === c.agent_id) return true;
    return r.task_id !== null && (this.who.viewer.tasks ?? []).includes(r.task_id);
  }

  /**
   * Checks feedback on these receipts before anything is written; `apply` then writes it. Receipts inferred
   * from a task (not strict) only take the nodes they hold.
   */
  plan(a: FeedbackPlanInput): PlannedFeedback {
    const inAny = new Set(a.receipts.flatMap((r) => r.final_nodes.map((n) => n.id)));
    if (a.strict) {
      for (const [field, ids] of [['cited', a.cited], ['misleading', a.misleading]] as const) {
        const outside = ids.filter((id) => !inAny.has(id));
        if (outside.length) {
          const which = a.receipts.map((r) => r.receipt_id).join(', ');
          throw new LithosError('invalid_argument', `${field}: ${outside.map((id) => `"${this.noteName(id)}"`).join(', ')} ${outside.length === 1 ? 'was' : 'were'} not returned by receipt ${which}.`, {
            field,
            nodes: outside,
            receipt_ids: a.receipts.map((r) => r.receipt_id),
          });
        }
      }
    }
    const perReceipt = a.receipts.map((r) => {
      const finals = new Set(r.final_nodes.map((n) => n.id));
      const cited = a.cited.filter((id) => finals.has(id));
      const misleading = a.misleading.filter((id) => finals.has(id));
      checkFeedbackNodes(r, cited, misleading);
      return { r, cited, misleading };
    });
    return {
      receipts: a.receipts,
      apply: async () => {
        const out: FeedbackResult[] = [];
        for (const { r, cited, misleading } of perReceipt) {
          // The engine's learning service: feedback is serialised there, so two sessions cannot apply one receipt twice.
          out.push(await this.services.learning.feedback({ receipt_id: r.receipt_id, cited, misleading, output_text: a.output_text, accepted: a.accepted, agent: a.agent, task: a.task }));
        }
        return out;
      },
    };
  }

  /** lithos_feedback: which notes of one receipt were used or misleading, checked, then applied once. */
  async feedback(a: FeedbackRequest): Promise<FeedbackResult> {
    const receipt = await this.reportable(a.receipt_id);
    const cited = [...new Set((a.cited ?? []).map((r) => this.refToId(r)))];
    const misleading = [...new Set((a.misleading ?? []).map((r) => this.refToId(r)))];
    // A note the receipt returned but that has left the vault since: not_found, as lithos_task_complete says.
    const gone = [...cited, ...misleading].filter((id) => this.services.notes.note(id) === null && receipt.final_nodes.some((n) => n.id === id));
    if (gone.length) throw new LithosError('not_found', `No note ${gone.map((g) => `"${g}"`).join(', ')} any more (deleted since the retrieval).`, { missing: gone });
    const c = this.who.caller;
    const plan = this.plan({
      receipts: [receipt],
      strict: true,
      cited,
      misleading,
      output_text: a.output_text,
      accepted: a.accepted,
      agent: c.kind === 'human' ? null : c.agent_id,
      task: a.task_id ?? receipt.task_id,
    });
    const [r] = await plan.apply();
    return r;
  }

  /** The learned signals of a note the viewer may see (not_found otherwise). */
  nodeStats(ref: NoteRef): VisibleNodeStats {
    const note = this.notes.find(ref);
    const id = note.nodeId;
    const mem = this.services.learning.memory;
    const by_type: Record<string, { out: number; in: number }> = {};
    let out = 0;
    let inn = 0;
    for (const e of mem.edges.find({ from: id })) {
      if (!this.notes.seesId(e.to_id)) continue;
      out++;
      (by_type[e.type] ??= { out: 0, in: 0 }).out++;
    }
    for (const e of mem.edges.find({ to: id })) {
      if (!this.notes.seesId(e.from_id)) continue;
      inn++;
      (by_type[e.type] ??= { out: 0, in: 0 }).in++;
    }
    return { note, stats: mem.stats.get(id), edges: { out, in: inn, by_type } };
  }

  /** A ledger entry's phase and vitality (learning/ledger-phases.ts) for a note the viewer may see (not_found otherwise); null for other notes. */
  ledgerStanding(ref: NoteRef): LedgerStanding | null {
    return this.services.learning.ledger.standing(this.notes.find(ref));
  }

  /** The quarantined notes the viewer may see, most misleading first. */
  quarantined(): QuarantinedNote[] {
    return this.services.learning.quarantined((id) => this.notes.seesId(id));
  }

  /**
   * The working memory of an agent, a task or both (default: the caller's own, when neither is given), with
   * the notes the viewer may not see left out.
   */
  async workingMemory(q: { agent?: string; task?: string }): Promise<VisibleWorkingMemory> {
    const agent = q.agent ?? (q.task === undefined ? (this.who.caller.agent_id ?? undefined) : undefined);
    const wm = await this.services.learning.workingMemory({ agent, task: q.task, now: this.services.clock.now() });
    const items: VisibleWorkingMemory['items'] = [];
    for (const it of wm.items) {
      const note = this.notes.byId(it.id);
      if (note) items.push({ ...it, note });
    }
    return { agent: wm.agent, task: wm.task, items };
  }

  /** Consolidates now (a task's, an agent's, or all recent working memory), as the caller. */
  async consolidate(q: { task?: string; agent?: string }): Promise<VisibleConsolidation> {
    const r = await this.services.learning.consolidator.run({ task: q.task, agent: q.agent, actor: this.who.auditActor });
    const visible = (ids: string[]): string[] => ids.filter((id) => this.notes.seesId(id));
    return {
      units: r.units.length,
      edges_created: r.edges_created,
      edges_reinforced: r.edges_reinforced,
      hypotheses_promoted: visible(r.hypotheses_promoted),
      concepts_created: visible(r.concepts_created),
      concepts_updated: visible(r.concepts_updated),
      concept_members_linked: r.concept_members_linked,
      summaries_refreshed: visible(r.summaries_refreshed),
    };
  }

  /**
   * Consolidation once a task (and its feedback) is recorded: an internal job, run as the agent that
   * completed it (`human`: the person). The task is complete whatever happens here, so a failure is logged,
   * not thrown.
   */
  async afterTask(taskId: string, agent: string, sampler?: Sampler): Promise<void> {
    try {
      await this.services.learning.consolidator.run({ task: taskId, actor: agent === 'human' ? { kind: 'human', id: null } : { kind: 'agent', id: agent }, ...(sampler ? { sampler } : {}) });
    } catch (err) {
      this.logger.warn('consolidation after task completion failed', { task_id: taskId, error: String(err) });
    }
  }

  /** A reference (id, path, title or alias) as a node id; unknown or hidden references stay as written. */
  private refToId(ref: string): string {
    return this.notes.get(ref)?.nodeId ?? ref;
  }

  /** A note named in an error: its title only when the viewer may see it (else the id as given, like an unknown one). */
  private noteName(id: string): string {
    const n = this.notes.byId(id);
    return n ? `${n.cached.meta.title || n.path} (${id})` : id;
  }
}
