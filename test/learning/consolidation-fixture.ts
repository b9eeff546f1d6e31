import { note, openHarness, type Harness } from '../engine/harness';
import type { Receipt } from '../../shared/retrieval/types';
import { TERMS } from '../retrieval/receipt-fixture';
import { feedbackMark } from '../../shared/learning/feedback';

/** Six notes on one theme (Kafka consumer lag), each a specific case: a concept in the making. */
export const LAG = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'].map((s, i) => ({
  id: `0000000${i + 1}-aaaa-4aaa-8aaa-00000000000${i + 1}`,
  path: `project/streams/Lag case ${s}.md`,
}));

/** Unrelated notes (the vault's baseline), a hypothesis, a summary note and another agent's private note. */
export const OTHER = ['Garden watering', 'Tax forms', 'Bread baking', 'Bike repair', 'Piano practice', 'Trip to Lisbon'].map((t, i) => ({
  id: `0000000${i + 1}-bbbb-4bbb-8bbb-00000000000${i + 1}`,
  path: `shared/misc/${t}.md`,
  title: t,
}));
export const HYPO = { id: '00000001-cccc-4ccc-8ccc-000000000001', path: 'project/streams/Lag hypothesis.md' };
export const SUMMARY = { id: '00000001-dddd-4ddd-8ddd-000000000001', path: 'project/streams/Streams summary.md' };
export const PRIVATE = { id: '00000001-eeee-4eee-8eee-000000000001', path: 'agent/agent-b/Scratch.md' };

const LAG_TEXT = [
  'Kafka consumer lag grew on the orders topic because the consumer group rebalanced too often.',
  'Kafka consumer lag on the payments topic: the consumer group fetch size was too small for the partition.',
  'Consumer lag in Kafka rose when one partition of the consumer group was stuck behind a poison message.',
  'The Kafka consumer group lag alert fired: consumers were slow because the partition count was too low.',
  'Kafka lag in the consumer group returned after a deploy; the consumer commit interval was too long.',
  'High Kafka consumer lag on the events topic; scaling the consumer group to more partitions fixed it.',
];
const OTHER_TEXT = [
  'Water the tomatoes early in the morning and mulch the beds against the summer heat.',
  'The tax forms are due in April; keep the receipts for deductible office supplies.',
  'Sourdough bread needs a lively starter, a long cold proof and a very hot oven.',
  'A bike chain that skips usually means a worn cassette or a stretched chain.',
  'Practise piano scales slowly with a metronome before speeding up the tempo.',
  'The trip to Lisbon: trams up the hills, custard tarts in Belem, fado at night.',
];

export function fixtureFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  LAG.forEach((n, i) => {
    files[n.path] = note({ id: n.id, title: `Lag case ${i + 1}`, tags: ['kafka', 'lag'], note_type: 'observation' }, `${LAG_TEXT[i]}\n`);
  });
  OTHER.forEach((n, i) => {
    files[n.path] = note({ id: n.id, title: n.title, tags: ['misc'] }, `${OTHER_TEXT[i]}\n`);
  });
  files[HYPO.path] = note({ id: HYPO.id, title: 'Lag hypothesis', note_type: 'hypothesis', tags: ['kafka'] }, 'Consumer lag may come from slow commits.\n');
  files[SUMMARY.path] = note(
    { id: SUMMARY.id, title: 'Streams summary', note_type: 'summary' },
    `What we know about streams: [[Lag case a1]], [[Lag case a2]] and [[Lag case a3]].\n`,
  );
  files[PRIVATE.path] = note({ id: PRIVATE.id, access_scope: 'agent_private', author: 'agent-b' }, 'Private scratch about kafka consumer lag.\n');
  return files;
}

export async function openFixture(): Promise<Harness> {
  const h = await openHarness(fixtureFiles());
  await h.engine.reconcile();
  return h;
}

let seq = 0;
/** A receipt at the harness clock's time (minus `agoMs`) returning `ids`. */
export function receiptOf(h: Harness, ids: string[], over: Partial<Receipt> & { agoMs?: number } = {}): Receipt {
  const { agoMs = 0, ...rest } = over;
  seq++;
  return {
    receipt_id: `rc-${seq}`,
    ts: new Date(h.clock.now() - agoMs).toISOString(),
    agent_id: 'agent-a',
    task_id: null,
    query_text: `query ${seq}`,
    query_class: 'lookup',
    intent: null,
    namespace_filter: [],
    temperature: 0.3,
    coherence: 0.7,
    terrace_reached: 1,
    terrace2: { wanted: false, why: 'low temperature', outcome: 'not wanted' },
    candidates: ids,
    final_nodes: ids.map((id) => ({ id, score: 0.5, scouts: ['lexical'], terms: TERMS })),
    conflicts: [],
    scouts: {},
    ...rest,
  };
}

/**
 * Appends a receipt returning `ids` and records, as feedback does, which of them it found used (`used`,
 * default all): working memory and consolidation count those. Only that record — none of feedback's other
 * effects (its own edges, salience) — so a test sees what consolidation does alone.
 */
export async function usedReceipt(h: Harness, ids: string[], over: Partial<Receipt> & { agoMs?: number; used?: string[] } = {}): Promise<Receipt> {
  const { used = ids, ...rest } = over;
  const r = receiptOf(h, ids, rest);
  await h.engine.services.retrieval.receipts.append(r);
  await h.engine.services.learning.memory.learned.setMark(feedbackMark(r.receipt_id), { at: h.clock.now(), agent: r.agent_id, task: r.task_id, used, misleading: [] });
  return r;
}

/** Bumps co-activation of every pair of `ids` `times` times. */
export async function coactivate(h: Harness, ids: readonly string[], times: number): Promise<void> {
  for (let t = 0; t < times; t++) {
    for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) await h.engine.services.learning.memory.coactivation.bump(ids[i], ids[j], 'project', h.clock.now());
  }
}

export async function auditActions(h: Harness): Promise<{ action: string; target: string | null; data: Record<string, unknown> }[]> {
  const text = new TextDecoder().decode((await h.blobs.read('audit.jsonl')) ?? new Uint8Array());
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { action: string; target: string | null; data: Record<string, unknown> });
}
