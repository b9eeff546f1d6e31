import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { Receipt, ScoreTerms } from '../../shared/retrieval/types';
import type { ToolCaller } from '../../shared/tools/types';
import { note } from '../engine/harness';
import { AGENT, HUMAN, openTools, type ToolHarness } from './fixture';

/**
 * An agent's context is a budget: whatever the vault holds, no tool's result with default arguments is longer
 * than RESULT_BUDGET characters of JSON (what an MCP client puts in the context). The vault here is
 * pathological on purpose — a 3 MB note, a hub with FANS backlinks, TAGS tags in FOLDERS folders, a 500 KB
 * frontmatter value, MANY findings, agents, proposals (two of 1.5 MB), edges and working-memory items, each list
 * several budgets long — and every tool of the catalog must have a case below, so a new tool is held to the budget
 * the day it is added. The counts are as small as still overflow a budget several times, to keep the suite quick.
 */
const RESULT_BUDGET = 25_000;

const FANS = 1_500;
const TAGS = 1_500;
const FOLDERS = 750;
const MANY = 400;
const BIG = 'big/Big.md';
const HUB = 'hub/Hub.md';
const FRONT = 'big/Front.md';
const WIDE = 500_000;

const fanPath = (i: number) => `fans/f${i % FOLDERS}/Fan ${i}.md`;

function vault(): Record<string, string> {
  const files: Record<string, string> = {};
  const lines = Array.from({ length: 25_000 }, (_, i) => `Line ${i} of the big note about the connection pool — ${'word '.repeat(20)}`);
  files[BIG] = note({ title: 'Big' }, `# Big\n${lines.join('\n')}\n[[Hub]]\n`);
  files[HUB] = note({ title: 'Hub', tags: ['hub'] }, 'The hub every fan links to: connection pool notes.\n');
  files[FRONT] = note({ title: 'Front', blob: 'b'.repeat(WIDE), summary: 's'.repeat(WIDE) }, 'A note whose frontmatter holds half a megabyte. [[Hub]]\n');
  for (let i = 0; i < FANS; i++) files[fanPath(i)] = note({ tags: [`t${i % TAGS}`] }, `Fan ${i} of the hub about the connection pool. [[Hub]] [[Missing ${i}]]\n`);
  return files;
}

const terms: ScoreTerms = { base: 1, type_prior: 0, scope_affinity: 0, graph_affinity: 0, spaced_repetition: 0, ignored_penalty: 0, misleading_penalty: 0, concept_damping: 0, tag_affinity: 0, intent: 0, scouts: {} };

let t: ToolHarness;
const ids: Record<string, string> = {};
const sizes: Record<string, number> = {};

beforeAll(async () => {
  const mark = (what: string) => process.env.LITHOS_MEASURE && console.log(what, Date.now() - t0);
  const t0 = Date.now();
  t = await openTools(vault());
  mark('vault');
  const e = t.engine;
  const co = e.services.coordination;
  await co.ensureAgent('agent-a');
  for (let i = 0; i < MANY; i++) await co.registerAgent({ id: `bot-${i}`, type: 'bot', metadata: { notes: 'm'.repeat(10_000) } });
  mark('agents');
  const task = await co.createTask({ created_by: 'agent-a', title: 'Busy task', description: 'd'.repeat(20_000) });
  ids.task = task.id;
  ids.cancel = (await co.createTask({ created_by: 'agent-a', title: 'Task to cancel', description: 'd'.repeat(20_000) })).id;
  for (let i = 0; i < 100; i++) await co.createTask({ created_by: 'agent-a', title: `Task ${i}`, description: 'd'.repeat(20_000) });
  for (let i = 0; i < MANY; i++) await co.postFinding({ task_id: task.id, agent: 'agent-a', summary: 'f'.repeat(1_000) });
  for (let i = 0; i < 200; i++) await co.claim({ task_id: task.id, aspect: `aspect ${i} ${'a'.repeat(150)}`, agent: 'agent-a' });
  for (let i = 0; i < 200; i++) await co.claim({ task_id: ids.cancel, aspect: `aspect ${i} ${'a'.repeat(150)}`, agent: 'agent-a' });
  mark('tasks');
  const hub = e.services.notes.noteAtPath(HUB)!;
  const fans = Array.from({ length: MANY }, (_, i) => e.services.notes.noteAtPath(fanPath(i))!);
  for (const f of fans) {
    await e.services.learning.memory.edges.upsert({ from_id: hub.nodeId, to_id: f.nodeId, type: 'supports', weight: 0.5, namespace: 'hub', provenance_actor: 'agent-a', provenance_type: 'agent', evidence: { quote: 'q'.repeat(5_000) }, conflict_state: null });
  }
  mark('edges');
  const big = e.services.notes.noteAtPath(BIG)!;
  ids.edge = (await e.services.learning.memory.edges.upsert({ from_id: big.nodeId, to_id: hub.nodeId, type: 'depends_on', weight: 0.5, namespace: 'big', provenance_actor: 'agent-a', provenance_type: 'agent', evidence: { quote: 'q'.repeat(WIDE) }, conflict_state: null })).edge_id;
  for (const [i, f] of fans.slice(0, 100).entries()) await e.services.conflicts.open({ a: fans[MANY - 1 - i].nodeId, b: f.nodeId, evidence: { claim_a: 'c'.repeat(20_000), claim_b: 'c'.repeat(20_000) }, actor: { kind: 'agent', id: 'agent-a' } });
  mark('conflicts');
  for (let i = 0; i < MANY; i++) {
    const p = await e.services.governance.proposals.create('agent-a', { path: `hub/Proposed ${i}.md`, mode: 'create', content: i < 2 ? 'p'.repeat(1_500_000) : 'p'.repeat(2_000), fields: { title: `Proposed ${i}` } }, { namespace: 'hub', title: `Proposed ${i}` });
    if (i === 0) ids.proposal = p.proposal_id;
    if (i === 1) ids.proposal2 = p.proposal_id;
  }
  mark('proposals');
  const ts = new Date(e.services.clock.now()).toISOString();
  for (let r = 0; r < MANY / 50; r++) {
    const receipt: Receipt = {
      receipt_id: `r-${r}`, ts, agent_id: 'agent-a', task_id: task.id, query_text: 'q'.repeat(2_000), query_class: 'lookup', intent: null, namespace_filter: [],
      temperature: 0.5, coherence: 0.5, terrace_reached: 1, terrace2: { wanted: false, why: 'test', outcome: 'not wanted' },
      candidates: fans.slice(0, 200).map((f) => f.nodeId),
      final_nodes: fans.slice(r * 50, r * 50 + 50).map((f) => ({ id: f.nodeId, path: f.path, title: f.cached.meta.title, score: 1, scouts: ['lexical'], terms })),
      conflicts: [], scouts: {},
    };
    await e.services.retrieval.receipts.append(receipt);
  }
  await e.services.retrieval.receipts.idle();
  mark('receipts');
  const links = fans.slice(0, 20).map((f) => f.nodeId);
  for (let i = 0; i < MANY; i++) {
    await e.services.learning.events.record({ kind: 'observation', actor: 'agent-a', actor_kind: 'agent', access_scope: 'shared', namespace: '', summary: 's'.repeat(500), data: { d: 'd'.repeat(1_900) }, links });
  }
  mark('events');
}, 600_000);

afterAll(async () => {
  if (process.env.LITHOS_MEASURE) console.log(Object.entries(sizes).map(([k, v]) => `${k}\t${v}`).join('\n'));
  await t?.engine.close();
});

type Args = () => Record<string, unknown>;
/** Each tool's heaviest calls with default paging; the person for the person's tools. */
const CASES: Record<string, [Args, ToolCaller?][]> = {
  lithos_write: [[() => ({ title: 'Written', content: 'w'.repeat(1_500_000) })]],
  lithos_read: [[() => ({ path: BIG })], [() => ({ path: FRONT })], [() => ({ path: HUB })]],
  lithos_delete: [[() => ({ path: fanPath(FANS - 1), expected_version: t.engine.services.notes.note(fanPath(FANS - 1))!.contentHash })]],
  lithos_search: [[() => ({ query: 'connection pool hub fan', k: 100 })]],
  lithos_semantic: [[() => ({ query: 'connection pool hub fan', k: 100 })]],
  lithos_list: [[() => ({ limit: 200 })]],
  lithos_links: [[() => ({ path: HUB })], [() => ({ path: HUB, depth: 3 })], [() => ({ path: fanPath(0), depth: 2, direction: 'outgoing' })]],
  lithos_tags: [[() => ({})]],
  lithos_related: [[() => ({ path: HUB, k: 50 })]],
  lithos_edge_create: [[() => ({ from: HUB, to: BIG, type: 'related_to', evidence: 'e'.repeat(WIDE) })]],
  lithos_edge_list: [[() => ({})], [() => ({ node: HUB })]],
  lithos_edge_update: [[() => ({ edge_id: ids.edge, weight: 0.9 })]],
  lithos_edge_delete: [[() => ({ edge_id: ids.edge })]],
  lithos_stats: [[() => ({})]],
  lithos_agent_register: [[() => ({ metadata: { notes: 'm'.repeat(16_000) } })]],
  lithos_agent_info: [[() => ({})]],
  lithos_agent_list: [[() => ({})]],
  lithos_task_create: [[() => ({ title: 'New task', description: 'd'.repeat(20_000) })]],
  lithos_task_claim: [[() => ({ task_id: ids.task, aspect: 'one more' })]],
  lithos_task_renew: [[() => ({ task_id: ids.task, aspect: 'one more' })]],
  lithos_task_release: [[() => ({ task_id: ids.task, aspect: 'one more' })]],
  lithos_task_status: [[() => ({ task_id: ids.task })]],
  lithos_task_list: [[() => ({})]],
  lithos_finding_post: [[() => ({ task_id: ids.task, summary: 'f'.repeat(4_000) })]],
  lithos_finding_list: [[() => ({ task_id: ids.task })]],
  lithos_task_complete: [[() => ({ task_id: ids.task, output_text: 'o'.repeat(100_000) })]],
  lithos_task_cancel: [[() => ({ task_id: ids.cancel })]],
  lithos_retrieve: [[() => ({ query_text: 'connection pool hub fan' })]],
  lithos_receipts: [[() => ({})], [() => ({ limit: 100 })]],
  lithos_node_stats: [[() => ({ path: HUB })]],
  lithos_feedback: [[() => ({ receipt_id: 'r-1', cited: [fanPath(50)] })]],
  lithos_quarantine_list: [[() => ({})]],
  lithos_working_memory: [[() => ({})], [() => ({ task: ids.task })]],
  lithos_consolidate: [[() => ({ task: ids.task })]],
  lithos_conflict_open: [[() => ({ a: HUB, b: BIG, evidence: 'e'.repeat(WIDE) })]],
  lithos_conflict_list: [[() => ({})]],
  lithos_conflict_resolve: [[() => ({ edge_id: ids.conflict, resolution: 'accepted_dual' })]],
  lithos_proposal_list: [[() => ({})], [() => ({}), HUMAN]],
  lithos_proposal_accept: [[() => ({ proposal_id: ids.proposal }), HUMAN]],
  lithos_proposal_reject: [[() => ({ proposal_id: ids.proposal2 }), HUMAN]],
  lithos_event_record: [[() => ({ kind: 'observation', summary: 's'.repeat(500), data: { d: 'd'.repeat(1_900) }, links: Array.from({ length: 20 }, (_, i) => fanPath(i)) })]],
  lithos_events: [[() => ({})], [() => ({ limit: 100 })], [() => ({ limit: 100 }), HUMAN]],
  // Its pages over many long targets: test/ledger/targets-tool.test.ts.
  lithos_targets: [[() => ({})], [() => ({ suggest: 'hub fan' })]],
  // Its alerts, ranking and scope: test/learning/drift.test.ts.
  lithos_drift: [[() => ({})], [() => ({ limit: 100 }), HUMAN]],
  // 100 open conflicts here, cut to fit; the cap itself: test/ledger/briefing.test.ts.
  lithos_briefing: [[() => ({})], [() => ({}), HUMAN]],
  // Its weeks, compaction and bound: test/ledger/timeline.test.ts.
  lithos_timeline: [[() => ({})], [() => ({}), HUMAN], [() => ({ before: '2026-W01' }), HUMAN]],
};

test('every tool in the catalog has a case here', () => {
  expect(TOOL_CATALOG.map((d) => d.name).filter((n) => !(n in CASES))).toEqual([]);
});

/** Follows next_cursor from the first page to the last, gathering one list of every page. */
async function allPages(tool: string, args: Record<string, unknown>, list: string): Promise<{ items: unknown[]; pages: number; first: Record<string, unknown> }> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let first: Record<string, unknown> = {};
  do {
    const r = await t.call(tool, { ...args, ...(cursor ? { cursor } : {}) });
    if (pages === 0) first = r;
    items.push(...r[list]);
    cursor = r.next_cursor ?? undefined;
    pages++;
  } while (cursor);
  return { items, pages, first };
}

describe('paging the long lists', () => {
  // The fans and Front link to the hub (Big's link lies past the 2 MB it is indexed to).
  test('a hub\'s FANS + 1 backlinks come in pages of at most 20,000 characters; following next_cursor gives each once', async () => {
    const { items, pages, first } = await allPages('lithos_links', { path: HUB, direction: 'incoming' }, 'incoming');
    expect(first.incoming_total).toBe(FANS + 1);
    expect(new Set(items.map((x) => (x as { path: string }).path)).size).toBe(FANS + 1);
    expect(pages).toBeGreaterThan(FANS / 100);
  });

  test('TAGS tags, MANY agents, findings, proposals and working-memory items page to their totals', async () => {
    for (const [tool, args, list, total] of [
      ['lithos_tags', {}, 'tags', TAGS + 1],
      ['lithos_agent_list', { type: 'bot' }, 'agents', MANY],
      ['lithos_finding_list', { task_id: ids.task }, 'findings', MANY],
      ['lithos_proposal_list', {}, 'proposals', MANY],
      ['lithos_working_memory', { task: ids.task }, 'items', MANY],
    ] as const) {
      const { items, first } = await allPages(tool, args, list);
      expect([tool, items.length, first.total]).toEqual([tool, total, total]);
    }
  });

  test('a cut value ends with … and its item says truncated; a cursor not given by the tool is refused', async () => {
    const r = await t.call('lithos_read', { path: FRONT });
    expect(r.metadata_truncated).toBe(true);
    expect(JSON.stringify(r.frontmatter).length).toBeLessThanOrEqual(4_000);
    const { items } = await allPages('lithos_proposal_list', {}, 'proposals');
    const p = items.find((x) => (x as { proposal_id: string }).proposal_id === ids.proposal) as { content: string };
    expect(p).toMatchObject({ truncated: true, content_chars: 1_500_000 });
    expect(p.content.endsWith('…')).toBe(true);
    await expect(t.call('lithos_tags', { cursor: 'after:t1' })).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

// In catalog order, so the writes (delete, complete, resolve) come after the reads that need their data.
describe.each(TOOL_CATALOG.map((d) => d.name))('%s', (name) => {
  test(`stays within ${RESULT_BUDGET} characters of JSON on a pathological vault`, async () => {
    for (const [args, caller] of CASES[name] ?? []) {
      // Every call succeeds: a refusal would measure an error, not the result.
      const r: unknown = await t.call(name, args(), caller ?? AGENT);
      if (name === 'lithos_conflict_open') ids.conflict = (r as { conflict?: { edge_id?: string } }).conflict?.edge_id ?? '';
      const size = JSON.stringify(r).length;
      sizes[name] = Math.max(sizes[name] ?? 0, size);
      expect(size).toBeLessThanOrEqual(RESULT_BUDGET);
    }
  }, 120_000);
});
