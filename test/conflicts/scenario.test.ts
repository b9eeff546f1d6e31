/**
 * The scenario: after B is marked refuted against A, queries that used to rank B first rank A
 * first and surface the conflict; after the resolution the callouts are gone.
 */
import { note } from '../engine/harness';
import { HUMAN, openTools } from '../tools/fixture';
import { findBlocks } from '../../shared/conflicts/callout-blocks';

const A_ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const B_ID = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const A = 'project/atlas/Index finding.md';
const B = 'project/atlas/Pool finding.md';
const A_TEXT = note(
  { id: A_ID, title: 'Index finding', note_type: 'agent_finding', entities: ['atlas-ingest'] },
  'The ingest latency regression came from a missing index on the events partitions. The ingest pool size is 10 and that is enough.\n',
);
const B_TEXT = note(
  { id: B_ID, title: 'Pool finding', note_type: 'agent_finding', entities: ['atlas-ingest'] },
  'The ingest latency regression came from pool exhaustion: raise the ingest pool. The ingest pool size is 40 after the fix.\n',
);
const FILES: Record<string, string> = {
  [A]: A_TEXT,
  [B]: B_TEXT,
  'project/atlas/Dashboards.md': note({ title: 'Dashboards' }, 'Latency dashboards for the ingest service live in Grafana.\n'),
  'project/atlas/Retry policy.md': note({ title: 'Retry policy' }, 'Clients retry with exponential backoff and jitter.\n'),
};
const QUERIES = ['ingest pool latency regression', 'what caused the ingest latency regression, the pool'];

test('refuting B against A: B-first queries rank A first, the conflict is surfaced, the callouts are gone', async () => {
  const h = await openTools(FILES);
  const first = async (q: string, query_class = 'decision') => {
    const r = await h.engine.services.retrieval.retrieve({ query_text: q, query_class, agent_id: 'agent-a' }, { jitter: false, seed: 1 });
    return { top: r.nodes[0].id, conflicts: r.conflicts };
  };
  for (const q of QUERIES) expect((await first(q)).top).toBe(B_ID);

  // the rules find the disagreement when A is edited after open (pool size 10 vs 40)
  await h.call('lithos_write', { id: A_ID, content: A_TEXT.slice(A_TEXT.indexOf('---\n', 4) + 4) + '\nChecked again on the canary pods.\n' }, HUMAN);
  await h.engine.services.conflicts.drain();
  const [conflict] = h.engine.services.conflicts.list({ state: 'unreviewed' });
  expect(conflict).toMatchObject({ provenance_type: 'rule', evidence: { rule: 'number' } });
  expect([conflict.a, conflict.b].sort()).toEqual([A_ID, B_ID]);
  expect(findBlocks(h.vault.text(A)!)).toHaveLength(1);
  expect(findBlocks(h.vault.text(B)!)).toHaveLength(1);
  // surfaced for decision work, not for a lookup
  expect((await first(QUERIES[0])).conflicts).toEqual([{ edge_id: conflict.edge_id, a: conflict.a, b: conflict.b, state: 'unreviewed' }]);
  expect((await first(QUERIES[0], 'lookup')).conflicts).toEqual([]);
  const asked = await h.engine.services.retrieval.retrieve({ query_text: QUERIES[0], query_class: 'lookup', surface_conflicts: true, agent_id: 'agent-a' }, { jitter: false, record: false });
  expect(asked.conflicts.map((c) => c.edge_id)).toEqual([conflict.edge_id]);

  await h.call('lithos_conflict_resolve', { edge_id: conflict.edge_id, resolution: 'refuted', winner_id: A_ID }, HUMAN);

  for (const q of QUERIES) {
    for (const query_class of ['decision', 'design']) {
      const r = await first(q, query_class);
      expect({ q, query_class, top: r.top }).toEqual({ q, query_class, top: A_ID });
      expect(r.conflicts).toEqual([{ edge_id: conflict.edge_id, a: conflict.a, b: conflict.b, state: 'refuted' }]);
    }
  }
  expect(findBlocks(h.vault.text(A)!)).toEqual([]);
  expect(h.vault.text(B)).toBe(B_TEXT);
  await h.engine.close();
});
