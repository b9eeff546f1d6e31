import { note, openHarness, type Harness } from '../engine/harness';
import { IS_EXAMPLE_OF_WEIGHT } from '../../shared/learning/concepts';
import { INTENTS, type Intent, type RetrievalResult } from '../../shared/retrieval/types';
import { LAG, OTHER, fixtureFiles } from '../learning/consolidation-fixture';

/**
 * Learning only from use (issue 19): recording a retrieval writes its receipt and the telemetry counts
 * (retrieval_count, last_retrieved_at), and nothing that ranks reads them. So the same query asked again
 * and again, with no feedback in between, ranks the same notes with the same scores and score terms —
 * with a concept note and typed edges in the vault, for every intent (recency and utility), within a task.
 */

const CONCEPT = { id: '00000001-ffff-4fff-8fff-000000000001', path: 'concepts/Kafka lag.md' };

async function open(): Promise<Harness> {
  const h = await openHarness({
    ...fixtureFiles(),
    [CONCEPT.path]: note({ id: CONCEPT.id, title: 'Kafka lag', note_type: 'concept' }, 'Kafka consumer lag: consumer groups falling behind their partitions.\n'),
  });
  await h.engine.reconcile();
  const mem = h.engine.services.learning.memory;
  const edge = { namespace: 'project/streams', provenance_actor: 'consolidate', provenance_type: 'rule' as const, evidence: null, conflict_state: null };
  for (const m of LAG) await mem.edges.upsert({ ...edge, from_id: m.id, to_id: CONCEPT.id, type: 'is_example_of', weight: IS_EXAMPLE_OF_WEIGHT });
  await mem.edges.upsert({ ...edge, from_id: LAG[0].id, to_id: OTHER[0].id, type: 'related_to', weight: 0.4 });
  // Some learned history, so that every term has something to read.
  await mem.stats.update(LAG[1].id, { use_count: 3, ignored_count: 4, last_used_at: h.clock.now() - 3_600_000, salience: 0.6 });
  await mem.stats.update(CONCEPT.id, { use_count: 1, salience: 0.7 });
  return h;
}

/** What ranks: the order, each score and each score term. */
const ranking = (r: RetrievalResult) => r.nodes.map((n) => ({ id: n.id, score: n.score, terms: n.terms }));

describe('the same query three times without feedback', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await open();
  });
  afterAll(() => h.engine.close());

  test.each([undefined, ...INTENTS] as (Intent | undefined)[])('intent %s: identical ranking and scores', async (intent) => {
    const ask = () => h.engine.services.retrieval.retrieve({ query_text: 'kafka consumer lag', agent_id: 'agent-a', intent, max_context_nodes: 8 });
    const first = await ask();
    expect(first.receipt_id).not.toBeNull();
    expect(first.nodes.map((n) => n.id)).toContain(CONCEPT.id);
    const second = await ask();
    const third = await ask();
    expect(ranking(second)).toEqual(ranking(first));
    expect(ranking(third)).toEqual(ranking(first));
  });

  test('within a task (a re-query near the previous result teaches nothing either)', async () => {
    const ask = () => h.engine.services.retrieval.retrieve({ query_text: 'consumer group partitions', agent_id: 'agent-a', task_id: 'T-lag', intent: 'continuity' });
    const runs = [await ask(), await ask(), await ask()];
    expect(ranking(runs[1])).toEqual(ranking(runs[0]));
    expect(ranking(runs[2])).toEqual(ranking(runs[0]));
  });

  test('the telemetry counts still move, and only they', async () => {
    const mem = h.engine.services.learning.memory;
    const before = mem.stats.get(LAG[1].id);
    const r = await h.engine.services.retrieval.retrieve({ query_text: 'kafka consumer lag payments fetch size', agent_id: 'agent-a', max_context_nodes: 8 });
    expect(r.nodes.map((n) => n.id)).toContain(LAG[1].id);
    expect(mem.stats.get(LAG[1].id)).toEqual({ ...before, retrieval_count: before.retrieval_count + 1, last_retrieved_at: h.clock.now() });
  });
});
