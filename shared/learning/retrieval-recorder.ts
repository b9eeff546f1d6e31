/**
 * What a recorded retrieval leaves behind, besides its receipt: retrieval_count / last_retrieved_at of
 * the final nodes, the 24 h window of concept retrievals (concept damping, seeded from the receipt log on
 * first use), the follow-up locality signal within a task, and the consolidator's size trigger.
 */
import type { MemoryEngine } from '../engine';
import { RecentRetrievals } from '../retrieval/recent-retrievals';
import { CONCEPT_REPEAT_WINDOW_MS } from '../retrieval/constants';
import { MAX_RECEIPTS_LIMIT } from '../retrieval/receipts';
import type { Receipt } from '../retrieval/types';
import { applyFollowUp, FollowUpTracker } from './follow-up';

/** The memory-store mark holding the seq of the newest receipt written (ReceiptLog.check). */
export const RECEIPTS_SEQ_MARK = 'receipts:seq';

export class RetrievalRecorder {
  private readonly recent = new RecentRetrievals();
  private readonly followUps = new FollowUpTracker();
  private seeded: Promise<void> | null = null;

  constructor(
    private readonly engine: MemoryEngine,
    private readonly noteType: (id: string) => string | undefined,
    private readonly onRecorded: (receipt: Receipt) => void,
  ) {}

  /** Retrievals of `id` in the concept window before `now`. */
  count(id: string, now: number): number {
    return this.recent.count(id, now);
  }

  /** Before the first retrieval: the window's concept retrievals from the receipt log (none without concepts). */
  ready(ids: Iterable<string>): Promise<void> {
    return (this.seeded ??= this.seed(ids));
  }

  async record(receipt: Receipt): Promise<void> {
    const { engine } = this;
    const at = engine.now();
    this.recent.record(receipt.final_nodes.filter((n) => this.isConcept(n.id)).map((n) => n.id), at);
    const seq = await engine.receipts.append(receipt);
    // The receipt's seq rides in the same journal append as the counts: a receipts log cut later is found out.
    await engine.memory.batch(async () => {
      for (const n of receipt.final_nodes) {
        const s = engine.memory.stats.get(n.id);
        await engine.memory.stats.update(n.id, { retrieval_count: s.retrieval_count + 1, last_retrieved_at: at });
      }
      await engine.memory.learned.setMark(RECEIPTS_SEQ_MARK, seq);
    });
    // Implicit learning: a re-query in the same task near the previous result is a weak positive.
    if (receipt.task_id) await applyFollowUp(engine, this.followUps, receipt);
    this.onRecorded(receipt);
  }

  private isConcept(id: string): boolean {
    return this.noteType(id) === 'concept';
  }

  private async seed(ids: Iterable<string>): Promise<void> {
    let any = false;
    for (const id of ids) if ((any = this.isConcept(id))) break;
    if (!any) return;
    const now = this.engine.now();
    const res = await this.engine.receipts.query({ since: now - CONCEPT_REPEAT_WINDOW_MS, limit: MAX_RECEIPTS_LIMIT });
    this.recent.seed(res.receipts, (id) => this.isConcept(id));
  }
}
