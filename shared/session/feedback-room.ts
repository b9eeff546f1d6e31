/**
 * Feedback on retrievals as the session's caller may give it. Feedback counts once per receipt, and an agent
 * gives it only on its own receipts or those of a task it is on (lithos_feedback refuses the others), so
 * whether a receipt still waits for feedback is told only to a caller who could give it.
 */
import { feedbackMark } from '../learning/feedback';
import type { Receipt } from '../retrieval/types';
import type { SessionEngine } from './session-engine';
import type { SessionScope } from './session-scope';

export class FeedbackRoom {
  constructor(
    private readonly engine: Pick<SessionEngine, 'memory'>,
    private readonly who: SessionScope,
  ) {}

  /**
   * Whether this caller may give feedback on the receipt and none has been given yet. The receipt is one
   * the caller got through its session (lithos_retrieve, lithos_receipts).
   */
  awaits(receipt: Pick<Receipt, 'receipt_id' | 'agent_id' | 'task_id'>): boolean {
    if (!this.mayGive(receipt)) return false;
    return this.engine.memory.learned.mark(feedbackMark(receipt.receipt_id)) === null;
  }

  private mayGive(r: Pick<Receipt, 'agent_id' | 'task_id'>): boolean {
    if (this.who.isPerson || r.agent_id === this.who.caller.agent_id) return true;
    return r.task_id !== null && (this.who.viewer.tasks ?? []).includes(r.task_id);
  }
}
