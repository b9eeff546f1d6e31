import { retrieve, type RetrieveDeps } from '../../shared/retrieval/retrieve';
import { ALL_SCOUTS } from '../../shared/retrieval/scouts';
import { shouldUseLlmPass, type InterpretRequest, type Interpretation, type Interpreter } from '../../shared/retrieval/terrace2';
import type { QueryContext, Receipt, RetrievalResult, RetrieveOptions } from '../../shared/retrieval/types';
import { FakeClock } from '../twins/fake-clock';
import { MemoryCorpus, type MemoryCorpusOptions, type TwinNote } from '../twins/memory-corpus';
import { note, openHarness } from '../engine/harness';

describe('should_use_llm_pass, exactly as the design states', () => {
  test.each([
    // conflicts, class, temperature, wanted
    [1, 'lookup', 0, true],
    [3, 'debug', 0.1, true],
    [0, 'design', 0.26, true],
    [0, 'synthesis', 0.3, true],
    [0, 'decision', 0.5, true],
    [0, 'design', 0.25, false], // boundary: strictly above 0.25
    [0, 'design', 0.1, false],
    [0, 'debug', 0.5, false],
    [0, 'lookup', 0.6, false], // boundary: strictly above 0.6
    [0, 'lookup', 0.61, true],
    [0, 'planning', 0.9, true],
    [0, 'my own class', 0.95, true],
    [0, 'lookup', 0, false],
    [0, 'write', 0.59, false],
  ])('%i conflict(s), class %s, temperature %f → wanted %s', (conflicts, cls, t, wanted) => {
    const d = shouldUseLlmPass(conflicts, cls, t);
    expect(d.wanted).toBe(wanted);
    expect(d.why).not.toBe('');
  });

  test('the why names the rule that fired', () => {
    expect(shouldUseLlmPass(2, 'lookup', 0).why).toMatch(/2 conflict/);
    expect(shouldUseLlmPass(0, 'design', 0.3).why).toMatch(/design.*0\.30 > 0\.25/);
    expect(shouldUseLlmPass(0, 'lookup', 0.7).why).toMatch(/0\.70 > 0\.6/);
  });
});

// ── the pass in the pipeline, over the twin ─────────────────────────────────

/** A deterministic interpreter: a real object implementing the port, answering by a script per call. */
class ScriptedInterpreter implements Interpreter {
  readonly requests: InterpretRequest[] = [];
  constructor(private readonly script: (req: InterpretRequest, call: number) => Interpretation) {}
  async interpret(req: InterpretRequest): Promise<Interpretation> {
    this.requests.push(req);
    return this.script(req, this.requests.length);
  }
}

class BrokenInterpreter implements Interpreter {
  calls = 0;
  async interpret(): Promise<Interpretation> {
    this.calls++;
    throw new Error('model offline');
  }
}

const answer = (selected: string[], over: Partial<Interpretation> = {}): Interpretation => ({ selected, bridges: [], confidence: 0.9, follow_up_queries: [], ...over });

/** Scattered notes, no vectors: nothing confirms anything, so the scan runs hot (temperature > 0.6). */
const TOPICS = ['pool', 'cache', 'queue', 'index', 'lock', 'shard', 'replica', 'backup', 'vacuum', 'migration'];
const scattered: TwinNote[] = [
  ...TOPICS.map((t, i) => ({ id: `n-${t}`, title: `Notes on ${t}`, body: `The ${t} and the latency of service ${i}.` })),
  { id: 'n-ingress', title: 'Kubernetes ingress', body: 'Ingress controllers route traffic.' },
  { id: 'n-secret', title: 'Latency secrets', body: 'latency latency latency', access_scope: 'user_private' },
];

/**
 * One topic, near-identical vectors, linked to each other, among unrelated notes: a query naming the topic
 * narrows the vault to it, so the scan runs cool.
 */
const FILLER = ['harbour', 'violin', 'orchard', 'telescope', 'lantern', 'compass', 'meadow', 'falcon', 'pottery', 'canyon', 'lighthouse', 'tapestry', 'marathon', 'origami', 'aquarium', 'vineyard', 'chess', 'kayak', 'mosaic', 'desert', 'glacier', 'saxophone', 'volcano', 'sourdough', 'quarry', 'bonsai', 'trellis', 'igloo', 'zeppelin', 'lagoon'];
const coherent: TwinNote[] = [
  ...Array.from({ length: 6 }, (_, i) => ({
    id: `c${i}`,
    title: `Pool exhaustion ${i}`,
    tags: ['pool'],
    body: `Connection pool exhaustion under load, case ${i}.`,
    vector: [1, 0.01 * i, 0],
    links: [`c${(i + 1) % 6}`],
  })),
  ...FILLER.map((w, i) => ({ id: `f-${w}`, title: `The ${w}`, body: `A short note about the ${w}.`, vector: [0, Math.cos(i), Math.sin(i)] })),
];
const COHERENT_QUERY = 'connection pool exhaustion under load';

function deps(notes: TwinNote[], o: { interpreter?: Interpreter | null; corpus?: MemoryCorpusOptions } = {}): RetrieveDeps & { receipts: Receipt[] } {
  const receipts: Receipt[] = [];
  let n = 0;
  return {
    corpus: new MemoryCorpus(notes, o.corpus),
    scouts: ALL_SCOUTS,
    clock: new FakeClock(),
    interpreter: o.interpreter ?? null,
    newId: () => `r${++n}`,
    record: async (r) => {
      receipts.push(r);
    },
    receipts,
  };
}

const ask = (text: string, over: Partial<QueryContext> = {}): QueryContext => ({ query_text: text, agent_id: 'alice', ...over });
const run = (d: RetrieveDeps, ctx: QueryContext, opts: RetrieveOptions = {}): Promise<RetrievalResult> => retrieve(ctx, { jitter: false, seed: 7, ...opts }, d);
const ids = (r: RetrievalResult): string[] => r.nodes.map((x) => x.id);

test('fixtures: the scattered query runs hot, the coherent one cool', async () => {
  expect((await run(deps(scattered), ask('latency'))).temperature).toBeGreaterThan(0.6);
  expect((await run(deps(coherent, { corpus: { embed: () => [1, 0, 0] } }), ask(COHERENT_QUERY))).temperature).toBeLessThanOrEqual(0.25);
});

test('no interpreter: terrace 2 is wanted but skipped, said so in the result and the receipt, never faked', async () => {
  const d = deps(scattered);
  const r = await run(d, ask('latency'));
  expect(r.terrace2.wanted).toBe(true);
  expect(r.terrace2.outcome).toMatch(/^skipped: no interpreter configured/);
  expect(r.terrace_reached).toBe(1);
  expect(r.nodes.length).toBeGreaterThan(0);
  expect(d.receipts[0].terrace2).toEqual(r.terrace2);
  expect(d.receipts[0].terrace_reached).toBe(1);
});

test('low temperature, no conflicts: not wanted, and the interpreter is not asked', async () => {
  const interp = new ScriptedInterpreter(() => answer(['c0']));
  const r = await run(deps(coherent, { interpreter: interp, corpus: { embed: () => [1, 0, 0] } }), ask(COHERENT_QUERY));
  expect(r.terrace2).toMatchObject({ wanted: false, outcome: 'not wanted' });
  expect(r.terrace_reached).toBe(1);
  expect(interp.requests).toHaveLength(0);
});

test('with an interpreter terrace 2 is reached and its selection, order included, is the result', async () => {
  const interp = new ScriptedInterpreter((req) => {
    const [a, b, c] = req.candidates.slice(-3).map((x) => x.id);
    return answer([c, a, b], { bridges: [{ a: c, b: a, why: 'both about latency' }], confidence: 0.8 });
  });
  const d = deps(scattered, { interpreter: interp });
  const r = await run(d, ask('latency', { query_class: 'synthesis' }));
  expect(interp.requests).toHaveLength(1);
  const req = interp.requests[0];
  expect(req).toMatchObject({ query: 'latency', query_class: 'synthesis', min: 8, max: 15 });
  expect(req.temperature).toBeCloseTo(r.temperature, 3);
  expect(req.candidates.map((c) => c.id)).not.toContain('n-secret'); // the gate holds for the interpreter too
  expect(req.candidates[0].excerpt).not.toBe('');
  const [a, b, c] = req.candidates.slice(-3).map((x) => x.id);
  expect(ids(r)).toEqual([c, a, b]);
  expect(r.terrace_reached).toBe(2);
  expect(r.terrace2.outcome).toBe('done: 3 nodes selected, confidence 0.80');
  expect(r.nodes[0].reasons.some((x) => x.startsWith('interpreter: bridge to') && x.endsWith('both about latency'))).toBe(true);
  expect(d.receipts[0].final_nodes.map((n) => n.id)).toEqual([c, a, b]);
  expect(d.receipts[0].terrace_reached).toBe(2);
});

test('a throwing interpreter: the terrace-1 ranking is kept and the reason is given', async () => {
  const plain = await run(deps(scattered), ask('latency'));
  const broken = new BrokenInterpreter();
  const r = await run(deps(scattered, { interpreter: broken }), ask('latency'));
  expect(broken.calls).toBe(1);
  expect(r.terrace_reached).toBe(1);
  expect(r.terrace2).toMatchObject({ wanted: true, outcome: 'skipped: interpreter failed (model offline)' });
  expect(ids(r)).toEqual(ids(plain));
});

test('ids the interpreter invents, repeats or may not see are ignored', async () => {
  const interp = new ScriptedInterpreter((req) => answer(['no-such-note', req.candidates[1].id, 'n-secret', req.candidates[1].id, req.candidates[0].id]));
  const r = await run(deps(scattered, { interpreter: interp }), ask('latency'));
  const offered = interp.requests[0].candidates.map((c) => c.id);
  expect(ids(r)).toEqual([offered[1], offered[0]]);
  expect(r.terrace_reached).toBe(2);
});

test('an interpreter that selects nothing known leaves terrace 1 in place and says so', async () => {
  const plain = await run(deps(scattered), ask('latency'));
  const interp = new ScriptedInterpreter(() => answer(['ghost-1', 'ghost-2']));
  const r = await run(deps(scattered, { interpreter: interp }), ask('latency'));
  expect(r.terrace_reached).toBe(1);
  expect(r.terrace2.outcome).toBe('skipped: the interpreter selected no known node; terrace-1 ranking kept');
  expect(ids(r)).toEqual(ids(plain));
});

describe('follow-up round: once, only when confidence < 0.5 and temperature > 0.6', () => {
  const unsure = (req: InterpretRequest, call: number): Interpretation =>
    answer(
      req.candidates.map((c) => c.id),
      { confidence: 0.3, follow_up_queries: call === 1 ? ['kubernetes ingress'] : ['yet another round'] },
    );

  test('hot and unsure: the follow-up query runs, its finds are offered, then the second answer stands', async () => {
    const interp = new ScriptedInterpreter(unsure);
    // without the scouts that propose any note (recency, random) the ingress note is found only by the follow-up
    const r = await run(deps(scattered, { interpreter: interp }), ask('latency'), { without: ['recency', 'random'] });
    expect(r.temperature).toBeGreaterThan(0.6);
    expect(interp.requests).toHaveLength(2); // never a third round, though the second answer asks again
    const first = interp.requests[0].candidates.map((c) => c.id);
    const second = interp.requests[1].candidates.map((c) => c.id);
    expect(first).not.toContain('n-ingress');
    expect(second).toContain('n-ingress');
    expect(second.slice(0, first.length)).toEqual(first);
    const ingress = r.nodes.find((n) => n.id === 'n-ingress');
    expect(ingress?.reasons).toContain('found by the follow-up query "kubernetes ingress"');
    expect(r.terrace_reached).toBe(2);
    expect(r.terrace2.outcome).toMatch(/follow-up/);
  });

  test('confident enough (0.5): no follow-up', async () => {
    const interp = new ScriptedInterpreter((req) => answer([req.candidates[0].id], { confidence: 0.5, follow_up_queries: ['kubernetes ingress'] }));
    await run(deps(scattered, { interpreter: interp }), ask('latency'));
    expect(interp.requests).toHaveLength(1);
  });

  test('unsure but cool (terrace 2 wanted for a conflict): no follow-up', async () => {
    const interp = new ScriptedInterpreter(unsure);
    const d = deps(coherent, { interpreter: interp, corpus: { embed: () => [1, 0, 0], edges: [{ from_id: 'c0', to_id: 'c1', type: 'contradicts' }] } });
    const r = await run(d, ask(COHERENT_QUERY, { query_class: 'debug' })); // debug lists conflicts
    expect(r.temperature).toBeLessThanOrEqual(0.6);
    expect(r.terrace2.why).toMatch(/conflict/);
    expect(interp.requests).toHaveLength(1);
    expect(r.terrace_reached).toBe(2);
  });
});

test('engine: with no interpreter wired, a wanted pass is recorded as skipped in the receipt; setInterpreter makes it run', async () => {
  const { engine } = await openHarness({
    'a.md': note({ title: 'Pool of ten' }, 'A pool of ten connections is enough.'),
    'b.md': note({ title: 'Pool of fifty' }, 'A pool of ten connections is not enough; use fifty.'),
  });
  await engine.reconcile();
  const [a, b] = ['a.md', 'b.md'].map((p) => engine.services.notes.note(p)!.nodeId);
  await engine.services.learning.memory.edges.upsert({ from_id: a, to_id: b, type: 'contradicts', weight: 1, namespace: 'shared', provenance_actor: 'test', provenance_type: 'human', evidence: null, conflict_state: 'open' });
  const r = await engine.services.retrieval.retrieve({ query_text: 'pool connections', agent_id: 'alice', query_class: 'debug' }, { jitter: false });
  expect(r.conflicts).toHaveLength(1);
  const receipt = (await engine.services.retrieval.receipts.query({ receipt_id: r.receipt_id! })).receipts[0];
  expect(receipt.terrace2).toMatchObject({ wanted: true, outcome: expect.stringMatching(/^skipped: no interpreter/) });
  expect(receipt.terrace2.why).toMatch(/conflict/);

  const interp = new ScriptedInterpreter(() => answer([b]));
  engine.services.retrieval.setInterpreter(interp);
  const r2 = await engine.services.retrieval.retrieve({ query_text: 'pool connections', agent_id: 'alice', query_class: 'debug' }, { jitter: false });
  expect(ids(r2)).toEqual([b]);
  expect((await engine.services.retrieval.receipts.query({ receipt_id: r2.receipt_id! })).receipts[0]).toMatchObject({ terrace_reached: 2, final_nodes: [{ id: b }] });
  await engine.close();
});
