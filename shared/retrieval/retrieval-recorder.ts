/**
 * What a recorded retrieval leaves behind: its receipt, and retrieval_count / last_retrieved_at of the
 * final nodes — telemetry only (node stats, the note panel): nothing that ranks reads them, since being
 * shown is no evidence a note helped. Then whatever follows a recording (the `recorded` port: the
 * consolidator's size trigger).
 */
import type { Clock } from '../ports';
import type { MemoryStore } from '../stores/memory-store';
import type { ReceiptLog } from './receipts';
import type { Receipt } from './types';

/** The memory-store mark holding the seq of the newest receipt written (ReceiptLog.check). */
export const RECEIPTS_SEQ_MARK = 'receipts:seq';

export interface RecorderDeps {
  receipts: Pick<ReceiptLog, 'append'>;
  memory: Pick<MemoryStore, 'batch' | 'stats' | 'learned'>;
  clock: Clock;
  /** Runs after each retrieval is recorded. */
  recorded(receipt: Receipt): Promise<void>;
}

export class RetrievalRecorder {
  constructor(private readonly d: RecorderDeps) {}

  async record(receipt: Receipt): Promise<void> {
    const { memory } = this.d;
    const at = this.d.clock.now();
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
}
