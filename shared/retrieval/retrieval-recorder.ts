/**
 * What a recorded retrieval leaves behind: its receipt, retrieval_count / last_retrieved_at of the final
 * nodes, and the 24 h window of concept retrievals (concept damping, seeded from the receipt log: read ahead
 * at open where concepts exist, filtered at the first retrieval); then whatever learning makes of it (the `recorded` port: the follow-up signal, the consolidator's
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

/** The concept window's receipts, read for the seed: each one's time and final node ids. */
interface ReceiptWindow {
  since: number;
  /** False when the read stopped at the receipts limit: a later window may hold receipts this one lacks. */
  complete: boolean;
  receipts: { ts: string; ids: string[] }[];
}

export class RetrievalRecorder {
  private readonly recent = new RecentRetrievals();
  private seeded: Promise<void> | null = null;
  private preloaded: Promise<ReceiptWindow | null> | null = null;

  constructor(private readonly d: RecorderDeps) {}

  /** Retrievals of `id` in the concept window before `now`. */
  count(id: string, now: number): number {
    return this.recent.count(id, now);
  }

  /** Before the first retrieval: the window's concept retrievals from the receipt log (none without concepts). */
  ready(ids: Iterable<string>): Promise<void> {
    return (this.seeded ??= this.seed(ids));
  }

  /**
   * Reads the receipts ready() will need ahead of it (at open, where concepts exist), so the first retrieval
   * only filters them. Nothing can be appended meanwhile: the engine holding the vault is the log's one
   * writer, and only retrievals append, after ready().
   */
  preload(ids: Iterable<string>): void {
    if (this.seeded || this.preloaded || !this.anyConcept(ids)) return;
    this.preloaded = this.window(this.d.clock.now() - CONCEPT_REPEAT_WINDOW_MS).catch(() => null);
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

  private anyConcept(ids: Iterable<string>): boolean {
    for (const id of ids) if (this.isConcept(id)) return true;
    return false;
  }

  private async seed(ids: Iterable<string>): Promise<void> {
    if (!this.anyConcept(ids)) return;
    const since = this.d.clock.now() - CONCEPT_REPEAT_WINDOW_MS;
    const ahead = this.preloaded ? await this.preloaded : null;
    this.preloaded = null;
    // A window read earlier starts no later, so it holds this one's receipts, unless the limit cut it short
    // (or the clock went back). Note types are read now, as the first retrieval finds them.
    const w = ahead && ahead.complete && ahead.since <= since ? ahead : await this.window(since);
    this.recent.seed(
      w.receipts.filter((r) => !(Date.parse(r.ts) < since)),
      (id) => this.isConcept(id),
    );
  }

  private async window(since: number): Promise<ReceiptWindow> {
    const res = await this.d.receipts.query({ since, limit: MAX_RECEIPTS_LIMIT });
    return { since, complete: res.receipts.length < MAX_RECEIPTS_LIMIT, receipts: res.receipts.map((r) => ({ ts: r.ts, ids: r.final_nodes.map((n) => n.id) })) };
  }
}
