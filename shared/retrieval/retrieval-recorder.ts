/**
 * What a recorded retrieval leaves behind: its receipt, retrieval_count / last_retrieved_at of the final
 * nodes, and the 24 h window of concept retrievals (concept damping, seeded from the receipt log on first
 * use); then whatever learning makes of it (the `recorded` port: the follow-up signal, the consolidator's
 * size trigger).
 */
import type { Clock } from '../ports';
import type { MemoryStore } from '../stores/memory-store';
import { RecentRetrievals } from './recent-retrievals';
import { CONCEPT_REPEAT_WINDOW_MS } from './constants';
import { MAX_RECEIPTS_LIMIT, type ReceiptLog } from './receipts';
import type { Receipt } from './types';

/** The memory-store mark holding the seq of the newest receipt written (ReceiptLog.check). */
export const RECEIPTS_SEQ_MARK = 'receipts:seq';

export interface RecorderDeps {
  receipts: Pick<ReceiptLog, 'append' | 'query'>;
  memory: Pick<MemoryStore, 'batch' | 'stats' | 'learned'>;
  clock: Clock;
  noteType(id: string): string | undefined;
  /** Runs after each retrieval is recorded. */
  recorded(receipt: Receipt): Promise<void>;
}

export class RetrievalRecorder {
  private readonly recent = new RecentRetrievals();
  private seeded: Promise<void> | null = null;

  constructor(private readonly d: RecorderDeps) {}

  /** Retrievals of `id` in the concept window before `now`. */
  count(id: string, now: number): number {
    return this.recent.count(id, now);
  }

  /** Before the first retrieval: the window's concept retrievals from the receipt log (none without concepts). */
  ready(ids: Iterable<string>): Promise<void> {
    return (this.seeded ??= this.seed(ids));
  }

  async record(receipt: Receipt): Promise<void> {
    const { memory } = this.d;
    const at = this.d.clock.now();
    this.recent.record(receipt.final_nodes.filter((n) => this.isConcept(n.id)).map((n) => n.id), at);
    const seq = await this.d.receipts.append(receipt);
    // The receipt's seq rides in the same journal append as the counts: a receipts log cut later is found out.
    await memory.batch(async () => {
      for (const n of receipt.final_nodes) {
        const s = memory.stats.get(n.id);
        await memory.stats.update(n.id, { retrieval_count: s.retrieval_count + 1, last_retrieved_at: at });
      }
      await memory.learned.setMark(RECEIPTS_SEQ_MARK, seq);
    });
    await this.d.recorded(receipt);
  }

  private isConcept(id: string): boolean {
    return this.d.noteType(id) === 'concept';
  }

  private async seed(ids: Iterable<string>): Promise<void> {
    let any = false;
    for (const id of ids) if ((any = this.isConcept(id))) break;
    if (!any) return;
    const now = this.d.clock.now();
    const res = await this.d.receipts.query({ since: now - CONCEPT_REPEAT_WINDOW_MS, limit: MAX_RECEIPTS_LIMIT });
    this.recent.seed(res.receipts, (id) => this.isConcept(id));
  }
}
