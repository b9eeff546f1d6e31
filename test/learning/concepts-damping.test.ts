import { note, openHarness, type Harness } from '../engine/harness';
import { conceptDamping, rerank, utilitySignal } from '../../shared/retrieval/rerank';
import { resolveQuery } from '../../shared/retrieval/query';
import { MemoryCorpus } from '../twins/memory-corpus';
import { DEFAULT_NODE_STATS } from '../../shared/stores/memory-types';
import type { CorpusNote } from '../../shared/retrieval/types';
import { IS_EXAMPLE_OF_WEIGHT } from '../../shared/learning/concepts';
import { LAG, fixtureFiles } from './consolidation-fixture';

/**
 * Concept damping (issue 5, issue 19): a concept's salience counts at most 0.85, and a concept feedback found
 * used n times in the last 24 h loses min(0.4, 0.05 × n) of its score, so its members — the evidence —
 * get their turn. Being retrieved counts nothing. A concept is a gateway: when retrieval finds it, its
 * members (is_example_of sources) come in with it through the graph scout.
 */

const CONCEPT = { id: '00000001-ffff-4fff-8fff-000000000001', path: 'concepts/Backpressure.md' };
const DAY = 24 * 3600 * 1000;

function files(): Record<string, string> {
  return {
    ...fixtureFiles(),
    [CONCEPT.path]: note({ id: CONCEPT.id, title: 'Backpressure', note_type: 'concept' }, 'Backpressure overview: upstream producers outpace downstream processing.\n'),
  };
}

async function open(over: Partial<Harness> = {}): Promise<Harness> {
  const h = await openHarness(files(), over);
  await h.engine.reconcile();
  for (const m of LAG) {
    await h.engine.services.learning.memory.edges.upsert({ from_id: m.id, to_id: CONCEPT.id, type: 'is_example_of', weight: IS_EXAMPLE_OF_WEIGHT, namespace: 'concepts', provenance_actor: 'consolidate', provenance_type: 'rule', evidence: null, conflict_state: null });
  }
  return h;
}

const ask = (h: Harness) => h.engine.services.retrieval.retrieve({ query_text: 'backpressure overview', agent_id: 'agent-a' }, { jitter: false });
const dampingOf = async (h: Harness): Promise<number> => {
  const r = await ask(h);
  const c = r.nodes.find((n) => n.id === CONCEPT.id);
  if (!c) throw new Error('the concept was not retrieved');
  return c.terms.concept_damping;
};
/** One retrieval whose feedback cites the concept. */
const use = async (h: Harness): Promise<void> => {
  const r = await ask(h);
  await h.engine.services.learning.feedback({ receipt_id: r.receipt_id!, cited: [CONCEPT.id], agent: 'agent-a' });
};

describe('repeated-use penalty', () => {
  test('min(0.4, 0.05 × uses in the last 24 h)', () => {
    expect([0, 1, 3, 8, 20].map(conceptDamping)).toEqual([0, 0.05, 0.05 * 3, 0.4, 0.4]);
  });

  test('retrievals alone never damp a concept', async () => {
    const h = await open();
    try {
      const seen: number[] = [];
      for (let i = 0; i < 4; i++) {
        seen.push(await dampingOf(h));
        h.clock.advance(60_000);
      }
      expect(seen).toEqual([0, 0, 0, 0]);
    } finally {
      await h.engine.close();
    }
  });

  test('grows with each use feedback finds, and is gone once the uses are 24 h old', async () => {
    const h = await open();
    try {
      const seen: number[] = [];
      for (let i = 0; i < 4; i++) {
        seen.push(await dampingOf(h));
        await use(h);
        h.clock.advance(60_000);
      }
      expect(seen.map((x) => Math.round(x * 100) / 100)).toEqual([0, 0.05, 0.1, 0.15]);
      h.clock.advance(DAY);
      expect(await dampingOf(h)).toBe(0);
    } finally {
      await h.engine.close();
    }
  });

  test('survives a restart: the uses are kept in memory.sqlite', async () => {
    const h = await open();
    for (let i = 0; i < 3; i++) await use(h);
    await h.engine.close();
    const again = await open({ vault: h.vault, blobs: h.blobs, clock: h.clock });
    try {
      expect(await dampingOf(again)).toBeCloseTo(0.15, 10);
    } finally {
      await again.engine.close();
    }
  });

  test('re-rank subtracts exactly the penalty from a concept, and nothing from other notes', () => {
    const notes = [
      { id: 'c', title: 'A concept', note_type: 'concept' as const },
      { id: 'o', title: 'An observation', note_type: 'observation' as const },
    ];
    const plain = new MemoryCorpus(notes);
    const recent = Object.assign(new MemoryCorpus(notes), { conceptUses: () => 5 });
    const q = resolveQuery({ query_text: 'concept' });
    const cands = notes.map((n) => ({ id: n.id, scouts: { lexical: 1 }, reasons: [], base: 1 }));
    const score = (corpus: MemoryCorpus) => Object.fromEntries(rerank(cands, q, corpus, [], null, 0).map((r) => [r.id, r.score]));
    const before = score(plain);
    const after = score(recent);
    expect(before.c - after.c).toBeCloseTo(0.25, 10);
    expect(after.o).toBe(before.o);
  });
});

describe('salience ceiling', () => {
  const concept = { note_type: 'concept' } as CorpusNote;
  const finding = { note_type: 'agent_finding' } as CorpusNote;
  const stats = (salience: number) => ({ ...DEFAULT_NODE_STATS, node_id: 'x', salience });

  test('a concept with salience 1 ranks as one with 0.85; other notes do not have the ceiling', () => {
    expect(utilitySignal(concept, stats(1))).toBe(utilitySignal(concept, stats(0.85)));
    expect(utilitySignal(finding, stats(1))).toBeGreaterThan(utilitySignal(finding, stats(0.85)));
  });

  test('consolidation holds a concept note\'s stored salience at 0.85', async () => {
    const h = await open();
    try {
      await h.engine.services.learning.memory.stats.update(CONCEPT.id, { salience: 0.97 });
      await h.engine.services.learning.consolidator.run();
      expect(h.engine.services.learning.memory.stats.get(CONCEPT.id).salience).toBe(0.85);
    } finally {
      await h.engine.close();
    }
  });
});

describe('a concept is a gateway', () => {
  test('a query that finds only the concept also brings its members, through the is_example_of edges (graph scout)', async () => {
    // Enough notes that match the query for the members to be out of the seeds: only the edges bring them in.
    const fillers = Object.fromEntries(
      ['budget', 'roadmap', 'hiring', 'security', 'pricing', 'support', 'design', 'testing', 'release', 'infra', 'sales', 'legal'].map((w) => [
        `shared/overviews/${w}.md`,
        `Overview of ${w}: an overview page with the ${w} overview.\n`,
      ]),
    );
    const h = await openHarness({ ...files(), ...fillers });
    await h.engine.reconcile();
    for (const m of LAG) {
      await h.engine.services.learning.memory.edges.upsert({ from_id: m.id, to_id: CONCEPT.id, type: 'is_example_of', weight: IS_EXAMPLE_OF_WEIGHT, namespace: 'concepts', provenance_actor: 'consolidate', provenance_type: 'rule', evidence: null, conflict_state: null });
    }
    try {
      const r = await h.engine.services.retrieval.retrieve({ query_text: 'backpressure overview', agent_id: 'agent-a', max_context_nodes: 50 }, { jitter: false, without: ['random', 'recency'] });
      expect(r.nodes[0].id).toBe(CONCEPT.id);
      for (const m of LAG) {
        const n = r.nodes.find((x) => x.id === m.id);
        expect(n?.scouts).toContain('graph');
        expect(n?.reasons.join(' ')).toContain('is_example_of edge "Backpressure"');
      }
      const without = await h.engine.services.retrieval.retrieve({ query_text: 'backpressure overview', agent_id: 'agent-a', max_context_nodes: 50 }, { jitter: false, without: ['random', 'recency', 'graph'] });
      expect(without.nodes.filter((x) => LAG.some((m) => m.id === x.id)).length).toBeLessThan(LAG.length);
    } finally {
      await h.engine.close();
    }
  });
});
