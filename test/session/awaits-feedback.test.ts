import type { Receipt } from '../../shared/retrieval/types';
import { PERSON } from '../../shared/session/caller';
import { ALICE, BOB, DAVE, openScopeVault, type ScopeVault } from '../governance/scope-vault';

let v: ScopeVault;
beforeEach(async () => {
  v = await openScopeVault();
});
afterEach(async () => {
  await v.engine.close();
});

/** Alice's retrieval of the shared probe (every agent may see it), on task T (Bob created it; Dave is on no task) or on none. */
async function alicesReceipt(onTaskT: boolean): Promise<Receipt> {
  const args = { query_text: 'zebra striped probe', max_context_nodes: 1, namespace_filter: 'notes/shared', ...(onTaskT ? { task_id: v.taskT } : {}) };
  const r = await v.call('lithos_retrieve', args, ALICE);
  return (await v.engine.services.retrieval.receipts.query({ receipt_id: r.receipt_id, limit: 1 })).receipts[0];
}

/** Whether a receipt still waits for feedback, told only to callers who could give it (as lithos_feedback decides). */
describe('learning.awaitsFeedback', () => {
  test('a receipt waits for feedback until it is given, once', async () => {
    const receipt = await alicesReceipt(false);
    const person = await v.engine.as(PERSON);
    expect(person.learning.awaitsFeedback(receipt)).toBe(true);
    expect((await v.engine.as(ALICE)).learning.awaitsFeedback(receipt)).toBe(true);
    expect(await v.call('lithos_feedback', { receipt_id: receipt.receipt_id, cited: [] }, ALICE)).toMatchObject({ applied: true });
    expect(person.learning.awaitsFeedback(receipt)).toBe(false);
    expect((await v.engine.as(ALICE)).learning.awaitsFeedback(receipt)).toBe(false);
  });

  test("another agent's receipt: only for an agent on its task, the one that may give feedback on it", async () => {
    const onTask = await alicesReceipt(true);
    const offTask = await alicesReceipt(false);
    const bob = await v.engine.as(BOB);
    const dave = await v.engine.as(DAVE);
    expect(bob.learning.awaitsFeedback(onTask)).toBe(true);
    expect(bob.learning.awaitsFeedback(offTask)).toBe(false);
    expect(dave.learning.awaitsFeedback(onTask)).toBe(false);
    await expect(v.call('lithos_feedback', { receipt_id: offTask.receipt_id, cited: [] }, BOB)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(v.call('lithos_feedback', { receipt_id: onTask.receipt_id, cited: [] }, DAVE)).rejects.toMatchObject({ code: 'forbidden' });
    expect(await v.call('lithos_feedback', { receipt_id: onTask.receipt_id, cited: [] }, BOB)).toMatchObject({ applied: true });
    expect(bob.learning.awaitsFeedback(onTask)).toBe(false);
  });
});
