import { agentViewer, gateFor, HUMAN_VIEWER, type Viewer } from '../../shared/governance/gate';
import { ALL_SCOUTS } from '../../shared/retrieval/scouts';
import type { Receipt, RetrievalResult, Scout, ScoutHit, ScoutInput } from '../../shared/retrieval/types';
import type { MemoryEngine } from '../../shared/engine';
import { MemoryCorpus, twinScoutInput, type TwinNote } from '../twins/memory-corpus';
import { note, openHarness } from '../engine/harness';

/**
 * The scope gate is applied by every scout before it returns, and by the pipeline around them: a note the
 * caller may not see never shows, however well it matches — not in a scout's hits, not in the result's
 * nodes or conflicts, not in the receipt. Four ways a note is gated for agent "alice".
 */
type Gated = 'agent_private of bob' | 'user_private' | 'outside the namespace filter' | 'quarantined';
const KINDS: Gated[] = ['agent_private of bob', 'user_private', 'outside the namespace filter', 'quarantined'];

const ALICE = agentViewer('alice');
/** The filter of the namespace case; the others have none. */
const FILTER = ['project'];

function postmortem(problem: string, action: string, outcome: string, lesson: string): string {
  return ['## Problem', `- ${problem}`, '## Actions', `- ${action}`, '## Outcome', `- ${outcome}`, '## Lessons', `- ${lesson}`].join('\n');
}

// ── scout level, on the twin ────────────────────────────────────────────────

const QUERY = 'Pool exhaustion';
const NOW = Date.UTC(2026, 0, 31);
const DAY = 24 * 3600 * 1000;

/** G is the best match by every scout's own measure: title, words, vector, tags, newest, linked, co-used, contradicting, analogous, used for this very query before. */
function gatedNote(kind: Gated | null): TwinNote {
  const base: TwinNote = {
    id: 'g',
    title: 'Pool exhaustion',
    aliases: ['pool exhaustion'],
    tags: ['pool', 'exhaustion'],
    entities: ['react', 'cart-badge'],
    namespace: 'project/ui',
    updated_at: NOW,
    vector: [1, 0, 0],
    body: [
      'Pool exhaustion: the pool ran out.',
      postmortem(
        'Race condition between two renders corrupted the badge count',
        'Fixed the race by adding a mutex around the state update',
        'No corrupted counts since the mutex shipped',
        'Shared state updated by concurrent renders needs a mutex',
      ),
    ].join('\n'),
  };
  switch (kind) {
    case 'agent_private of bob':
      return { ...base, access_scope: 'agent_private', author: 'bob' };
    case 'user_private':
      return { ...base, access_scope: 'user_private' };
    case 'outside the namespace filter':
      return { ...base, namespace: 'elsewhere/ui' };
    case 'quarantined':
      return { ...base, status: 'quarantined' };
    default:
      return base;
  }
}

function twin(kind: Gated | null): MemoryCorpus {
  return new MemoryCorpus(
    [
      {
        id: 's',
        title: 'Orders DB race',
        namespace: 'project/db',
        entities: ['postgres', 'orders-db'],
        tags: ['db', 'postmortem'],
        updated_at: NOW - 40 * DAY,
        vector: [0.2, 1, 0],
        links: ['g', 'v'],
        body: postmortem(
          'Race condition between two writers corrupted the order total',
          'Fixed the race by adding a lock around the read-modify-write',
          'No corrupted totals since the lock shipped',
          'Shared state updated by concurrent writers needs a lock',
        ),
      },
      { id: 'v', title: 'Vacuum runbook', namespace: 'project/db', updated_at: NOW - 50 * DAY, vector: [0.5, 0.5, 0], body: 'The pool of vacuum workers.' },
      { id: 'w', title: 'Q3 planning', namespace: 'project/plan', updated_at: NOW - 60 * DAY, vector: [0, 0, 1], body: 'Quarterly goals.' },
      gatedNote(kind),
    ],
    {
      now: NOW,
      embed: () => [1, 0, 0],
      edges: [{ from_id: 'g', to_id: 's', type: 'contradicts', weight: 1, conflict_state: 'open' }],
      coactivation: [{ a: 's', b: 'g', count: 50 }],
      precedents: [{ precedent_id: 'p1', at: NOW, query_class: 'lookup', query_text: QUERY, agent_id: null, terms: ['pool', 'exhaustion'], used: ['g', 's'] }],
      expansion: ['g', 's'].flatMap((node_id) => ['pool', 'exhaustion'].map((term) => ({ scope: '', node_id, term, weight: 2, at: NOW }))),
      termAssoc: [{ scope: '', term: 'pool', shown: 10, used: 3, words: { mutex: [3, 3], badge: [3, 3] }, at: NOW }],
    },
  );
}

/** The pipeline's visibility rule: the shared gate for the viewer and filter, and never a quarantined note. */
function visibleIn(corpus: MemoryCorpus, viewer: Viewer, namespaces: string[]): (id: string) => boolean {
  const gate = gateFor(viewer, namespaces);
  return (id) => {
    const n = corpus.note(id);
    return !!n && n.status !== 'quarantined' && gate(n);
  };
}

/**
 * Input as the pipeline builds it: seeds are the visible seed note, the pool every wave-1 candidate the
 * caller may see (`rawPool` hands a scout the ungated pool instead, as a pipeline bug would).
 */
function input(kind: Gated | null, viewer: Viewer, o: { rawPool?: boolean } = {}): ScoutInput {
  const corpus = twin(kind);
  const namespaces = kind === 'outside the namespace filter' ? FILTER : [];
  const visible = visibleIn(corpus, viewer, namespaces);
  const seeds: ScoutHit[] = [{ id: 's', score: 1, reasons: [] }];
  const everyone: ScoutHit[] = [...seeds, { id: 'g', score: 0.9, reasons: [] }, { id: 'v', score: 0.5, reasons: [] }, { id: 'w', score: 0.1, reasons: [] }];
  const sorted = [...corpus.notes()].map((n) => n.id).sort();
  // the random scout's generator points at G first, then walks the rest
  const draws = [sorted.indexOf('g'), ...sorted.keys()];
  let i = 0;
  const random = () => (draws[i++ % draws.length] + 0.5) / sorted.length;
  return {
    ...twinScoutInput(corpus, { text: QUERY, viewer, namespaces, seeds, now: NOW, random }),
    visible,
    pool: o.rawPool ? everyone : everyone.filter((h) => visible(h.id)),
  };
}

const scoutIds = async (s: Scout, inp: ScoutInput): Promise<string[]> => (await s.run(inp)).map((h) => h.id);

describe('every scout, on the twin', () => {
  test.each(ALL_SCOUTS.map((s) => [s.name, s] as const))('control: %s proposes G when nothing gates it', async (_name, scout) => {
    expect(await scoutIds(scout, input(null, HUMAN_VIEWER))).toContain('g');
  });

  const table = ALL_SCOUTS.flatMap((s) => KINDS.map((k) => [s.name, k, s] as const));
  test.each(table)('%s never returns a note that is %s', async (_name, kind, scout) => {
    const ids = await scoutIds(scout, input(kind, ALICE));
    expect(ids).not.toContain('g');
    for (const id of ids) expect(['s', 'v', 'w']).toContain(id);
  });

  // Defence in depth, as the issue asks of every scout ("every scout must already call it"): a scout that
  // is handed a pool holding a gated note (a wave-1 bug) must still not return it.
  const wave2 = ALL_SCOUTS.filter((s) => s.wave === 2);
  test.each(wave2.flatMap((s) => KINDS.map((k) => [s.name, k, s] as const)))(
    '%s drops a note that is %s even from an ungated pool',
    async (_name, kind, scout) => {
      expect(await scoutIds(scout, input(kind, ALICE, { rawPool: true }))).not.toContain('g');
    },
  );
});

// ── end to end, through engine.services.retrieval.retrieve and the receipt log ────────────────

function files(kind: Gated | null): Record<string, string> {
  const fm: Record<string, unknown> = { title: 'Pool exhaustion', tags: ['pool', 'exhaustion'] };
  let path = 'project/ui/Pool exhaustion.md';
  if (kind === 'agent_private of bob') Object.assign(fm, { access_scope: 'agent_private', author: 'bob' });
  if (kind === 'user_private') fm.access_scope = 'user_private';
  if (kind === 'quarantined') fm.status = 'quarantined';
  if (kind === 'outside the namespace filter') path = 'elsewhere/ui/Pool exhaustion.md';
  return {
    [path]: note(fm, 'Pool exhaustion: the connection pool ran out of connections under load. Pool exhaustion again.\n'),
    'project/db/Pool sizing.md': note({ title: 'Pool sizing', tags: ['pool'] }, 'How we size the connection pool. See [[Pool exhaustion]].\n'),
    'project/db/Timeouts.md': note({ title: 'Timeouts' }, 'Connection timeouts when the pool is small.\n'),
    'project/plan/Q3.md': note({ title: 'Q3 planning' }, 'Quarterly goals for the team.\n'),
  };
}

async function setUp(kind: Gated | null): Promise<{ engine: MemoryEngine; g: string; sizing: string }> {
  const { engine } = await openHarness(files(kind));
  await engine.reconcile();
  const g = engine.services.notes.notes().find((n) => n.path.endsWith('Pool exhaustion.md'))!.nodeId;
  const sizing = engine.services.notes.note('project/db/Pool sizing.md')!.nodeId;
  // the gated note contradicts a visible one and was used with it: every route to it is open
  await engine.services.learning.memory.edges.upsert({
    from_id: g,
    to_id: sizing,
    type: 'contradicts',
    weight: 1,
    namespace: 'project',
    provenance_actor: 'test',
    provenance_type: 'human',
    evidence: null,
    conflict_state: 'open',
  });
  await engine.services.learning.memory.coactivation.bump(sizing, g, 'project', 0);
  return { engine, g, sizing };
}

function mentions(r: RetrievalResult | Receipt, id: string): string[] {
  const where: string[] = [];
  const nodes = 'nodes' in r ? r.nodes : r.final_nodes;
  if (nodes.some((n) => n.id === id)) where.push('nodes');
  if (r.conflicts.some((c) => c.a === id || c.b === id)) where.push('conflicts');
  if ('candidates' in r && r.candidates.includes(id)) where.push('candidates');
  if (JSON.stringify(r).includes(id)) where.push('anywhere');
  return where;
}

describe('through engine.services.retrieval.retrieve', () => {
  test('control: ungated, the note leads, with its conflict, in the result and the receipt', async () => {
    const { engine, g } = await setUp(null);
    const r = await engine.services.retrieval.retrieve({ query_text: QUERY, agent_id: 'alice', namespace_filter: FILTER, query_class: 'design' }, { jitter: false });
    expect(r.nodes[0].id).toBe(g);
    expect(r.conflicts.some((c) => c.a === g)).toBe(true);
    const receipt = (await engine.services.retrieval.receipts.query({ receipt_id: r.receipt_id! })).receipts[0];
    expect(mentions(receipt, g)).toEqual(['nodes', 'conflicts', 'candidates', 'anywhere']);
    await engine.close();
  });

  test.each(KINDS)('a note that is %s is absent from nodes, conflicts and the written receipt', async (kind) => {
    const { engine, g, sizing } = await setUp(kind);
    const namespace_filter = kind === 'outside the namespace filter' ? FILTER : [];
    for (const query_class of ['lookup', 'design']) {
      const r = await engine.services.retrieval.retrieve({ query_text: QUERY, agent_id: 'alice', namespace_filter, query_class }, { jitter: false });
      expect(r.nodes.map((n) => n.id)).toContain(sizing); // the visible neighbour is still found
      expect(mentions(r, g)).toEqual([]);
      const receipt = (await engine.services.retrieval.receipts.query({ receipt_id: r.receipt_id! })).receipts[0];
      expect(receipt.receipt_id).toBe(r.receipt_id);
      expect(mentions(receipt, g)).toEqual([]);
    }
    expect((await engine.services.retrieval.receipts.query({ node: g })).receipts).toEqual([]);
    await engine.close();
  });
});
