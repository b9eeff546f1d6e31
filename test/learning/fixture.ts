import { note, openHarness, type Harness } from '../engine/harness';
import type { Receipt } from '../../shared/retrieval/types';

export const A = '11111111-1111-4111-8111-111111111111';
export const B = '22222222-2222-4222-8222-222222222222';
export const C = '33333333-3333-4333-8333-333333333333';
export const D = '44444444-4444-4444-8444-444444444444';

/** Four notes that all answer "connection pool", so one retrieval returns every one of them. */
export const FILES: Record<string, string> = {
  'project/a.md': note({ id: A, title: 'Pool sizing' }, 'The connection pool was too small for the nightly batch; raise it to 40 connections.\n'),
  'project/b.md': note({ id: B, title: 'Pool timeouts', note_type: 'agent_finding' }, 'Connection pool timeouts came from long transactions holding connections.\n'),
  'project/c.md': note({ id: C, title: 'Pool metrics', note_type: 'summary' }, 'Dashboards for the connection pool: active, idle and waiting connections per minute.\n'),
  'project/d.md': note({ id: D, title: 'Pool history', note_type: 'task_record' }, 'The connection pool was introduced in 2023 to replace per-request connections.\n'),
};

export async function openLearning(files: Record<string, string> = FILES): Promise<Harness> {
  const h = await openHarness(files);
  await h.engine.reconcile();
  return h;
}

/** A recorded retrieval returning all four notes; its receipt. */
export async function retrieveAll(h: Harness, ctx: { query_class?: string; task_id?: string; agent_id?: string } = {}): Promise<Receipt> {
  const r = await h.engine.services.retrieval.retrieve({ query_text: 'connection pool', agent_id: 'agent-a', ...ctx }, { jitter: false, seed: 1 });
  const receipt = (await h.engine.services.retrieval.receipts.query({ receipt_id: r.receipt_id! })).receipts[0];
  expect(receipt.final_nodes.map((n) => n.id).sort()).toEqual([A, B, C, D]);
  return receipt;
}
