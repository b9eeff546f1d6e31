import { HashingEmbedder } from '../../shared/index/embedders/hashing-embedder';
import type { Embedder } from '../../shared/ports';
import { CONFLICT_TOOLS } from '../../shared/tools/conflicts';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { COORDINATION_TOOLS } from '../../shared/tools/coordination';
import { LCMA_TOOLS } from '../../shared/tools/lcma';
import { MEMORY_TOOLS } from '../../shared/tools/memory';
import { EVENT_TOOLS } from '../../shared/tools/events';
import { GOVERNANCE_TOOLS } from '../../shared/tools/governance';
import { LEDGER_TOOLS } from '../../shared/tools/ledger';
import { AGENT, HUMAN, INDEX_ID, POOL_ID, openTools, type ToolHarness } from './fixture';

/** Every knowledge tool's happy path on the fixture vault, through the dispatcher (as the MCP server calls it). */

let t: ToolHarness;
beforeEach(async () => {
  t = await openTools();
});
afterEach(async () => {
  await t.engine.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tool results are JSON
type Check = (r: any, t: ToolHarness) => void | Promise<void>;

const HAPPY: [tool: string, args: Record<string, unknown>, check: Check][] = [
  ['lithos_read', { path: 'project/atlas/Pool sizing.md' }, (r) => {
    expect(r).toMatchObject({ id: POOL_ID, title: 'Pool sizing', section: null, frontmatter: { title: 'Pool sizing' }, meta: { namespace: 'project/atlas', tags: ['atlas', 'latency'] } });
    expect(r.content).toContain('The connection pool was too small');
    expect(r.version).toMatch(/^[0-9a-f]{16}$/);
    expect(r.links).toEqual(expect.arrayContaining([{ raw: '[[Index]]', target: 'Index', resolved: true }, { raw: '[[Missing note]]', target: 'Missing note', resolved: false }]));
  }],
  ['lithos_read', { id: POOL_ID, section: 'Fix' }, (r) => expect(r.content).toBe('## Fix\nRaise the pool to 40 connections.\n')],
  ['lithos_read', { title: 'pooling' }, (r) => expect(r.path).toBe('shared/concepts/Connection pooling.md')],
  ['lithos_search', { query: 'connection pool', k: 5 }, (r) => {
    expect(r.results.map((h: { path: string }) => h.path)).toEqual(expect.arrayContaining(['project/atlas/Pool sizing.md', 'project/atlas/Index.md']));
    expect(r.results[0]).toEqual(expect.objectContaining({ id: expect.any(String), score: expect.any(Number), snippet: expect.any(String), namespace: expect.any(String) }));
    expect(r.spaces).toEqual([{ id: 'hash-ngram-v2-384', semantic: false }]);
  }],
  ['lithos_search', { query: 'connection', mode: 'lexical', tags: 'concept' }, (r) => {
    expect(r.results.map((h: { path: string }) => h.path)).toEqual(['shared/concepts/Connection pooling.md']);
    expect(r.spaces).toBeUndefined(); // words only: no space took part
  }],
  ['lithos_semantic', { query: 'reusing database connections', k: 3, namespace: ['shared'] }, (r) => {
    expect(r.mode).toBe('vector');
    expect(r.results[0].path).toBe('shared/concepts/Connection pooling.md');
    // Only the hashing space is active: the result says so and how to get a semantic model.
    expect(r.spaces).toEqual([{ id: 'hash-ngram-v2-384', semantic: false }]);
    expect(r.hint).toContain('lithos model pull');
  }],
  ['lithos_list', { namespace: 'project', limit: 1 }, (r) => {
    expect(r.notes.map((n: { path: string }) => n.path)).toEqual(['project/atlas/Index.md']);
    expect(r.total).toBe(2);
    expect(r.next_cursor).toEqual(expect.any(String));
  }],
  ['lithos_list', { since: '2024-05-01', author: 'agent-a' }, (r) => expect(r.notes.map((n: { path: string }) => n.path)).toEqual(['project/atlas/Pool sizing.md'])],
  ['lithos_list', { note_type: 'concept' }, (r) => expect(r.notes.map((n: { id: string }) => n.id)).toEqual([INDEX_ID])],
  ['lithos_links', { path: 'project/atlas/Pool sizing.md' }, (r) => {
    expect(r.outgoing).toEqual([{ id: INDEX_ID, path: 'project/atlas/Index.md', title: 'Index', depth: 1, via: 'project/atlas/Pool sizing.md' }]);
    expect(r.incoming.map((x: { path: string }) => x.path)).toEqual(['project/atlas/Index.md']);
    expect(r.broken).toEqual([{ from: 'project/atlas/Pool sizing.md', target: 'Missing note', raw: '[[Missing note]]' }]);
  }],
  ['lithos_links', { title: 'Index', direction: 'outgoing', depth: 2, include_broken: false }, (r) => {
    expect(r.outgoing.map((x: { path: string; depth: number }) => [x.path, x.depth])).toEqual([['project/atlas/Pool sizing.md', 1]]);
    expect(r.incoming).toEqual([]);
    expect(r.broken).toEqual([]);
  }],
  ['lithos_tags', {}, (r) => expect(r.tags).toEqual([{ tag: 'atlas', count: 2 }, { tag: 'concept', count: 1 }, { tag: 'latency', count: 1 }])],
  ['lithos_tags', { namespace: 'project', prefix: 'lat' }, (r) => expect(r.tags).toEqual([{ tag: 'latency', count: 1 }])],
  ['lithos_related', { path: 'project/atlas/Pool sizing.md', k: 5 }, (r) => {
    const index = r.related.find((x: { path: string }) => x.path === 'project/atlas/Index.md');
    expect(index.why.map((w: { kind: string }) => w.kind)).toEqual(expect.arrayContaining(['links_to', 'linked_from']));
    expect(r.related[0].path).toBe('project/atlas/Index.md');
  }],
  ['lithos_stats', {}, (r) => expect(r).toMatchObject({ notes: 3, by_namespace: { 'project/atlas': 2, 'shared/concepts': 1 }, embedding_spaces: ['hash-ngram-v2-384'], edges: 0 })],
  ['lithos_edge_list', {}, (r) => expect(r).toEqual({ edges: [], total: 0, next_cursor: null })],
];

describe('happy paths', () => {
  test.each(HAPPY)('%s %j', async (tool, args, check) => {
    await check(await t.call(tool, args), t);
  });

  test('every tool in the catalog has a happy-path case here or below', () => {
    const covered = new Set([...HAPPY.map(([name]) => name), 'lithos_write', 'lithos_delete', 'lithos_edge_create', 'lithos_edge_update', 'lithos_edge_delete', ...GOVERNANCE_TOOLS.map((d) => d.name), ...CONFLICT_TOOLS.map((d) => d.name), ...COORDINATION_TOOLS.map((d) => d.name), ...LCMA_TOOLS.map((d) => d.name), ...MEMORY_TOOLS.map((d) => d.name), ...EVENT_TOOLS.map((d) => d.name), ...LEDGER_TOOLS.map((d) => d.name)]); // events: test/events/events.test.ts; ledger: test/ledger/; conflicts: test/conflicts/; coordination: test/coordination/tools.test.ts; lcma: test/tools/lcma-tools.test.ts; memory: test/learning/consolidation-tools.test.ts; governance and lithos_edge_delete: test/governance/
    expect(TOOL_CATALOG.map((d) => d.name).filter((n) => !covered.has(n))).toEqual([]);
  });

  test('lithos_list pages with a stable cursor until the end', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await t.call('lithos_list', { limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.notes.map((n: { path: string }) => n.path));
      cursor = page.next_cursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual(['project/atlas/Index.md', 'project/atlas/Pool sizing.md', 'shared/concepts/Connection pooling.md']);
  });

  test('lithos_write creates a note in its namespace folder, assigning id, author, times, contributors; it is searchable at once', async () => {
    const r = await t.call('lithos_write', { title: 'Retry budget', content: 'Retries are capped at three per request.', namespace: 'project/atlas', tags: ['#atlas', 'retries'], note_type: 'agent_finding', confidence: 0.7 });
    expect(r).toMatchObject({ path: 'project/atlas/Retry budget.md', created: true, previous_version: null, title: 'Retry budget' });
    const read = await t.call('lithos_read', { id: r.id });
    expect(read.version).toBe(r.version);
    expect(read.frontmatter).toMatchObject({
      id: r.id,
      title: 'Retry budget',
      author: 'agent-a',
      contributors: ['agent-a'],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      namespace: 'project/atlas',
      note_type: 'agent_finding',
      confidence: 0.7,
      tags: ['atlas', 'retries'],
      schema_version: 2,
    });
    expect(read.content).toBe('Retries are capped at three per request.\n');
    const hits = await t.call('lithos_search', { query: 'retries capped', mode: 'lexical' });
    expect(hits.results[0].path).toBe('project/atlas/Retry budget.md');
  });

  test('lithos_write updates by id: given fields change, the rest and unknown frontmatter stay, the caller joins contributors', async () => {
    t.vault.put('project/atlas/Pool sizing.md', t.vault.text('project/atlas/Pool sizing.md')!.replace('---\n', '---\ncustom_field: keep me\n'), true);
    await t.engine.settle();
    const before = await t.call('lithos_read', { id: POOL_ID });
    const r = await t.call('lithos_write', { id: POOL_ID, status: 'archived', expected_version: before.version }, { kind: 'agent', agent_id: 'agent-c' });
    expect(r).toMatchObject({ id: POOL_ID, path: 'project/atlas/Pool sizing.md', created: false, previous_version: before.version });
    const after = await t.call('lithos_read', { id: POOL_ID });
    expect(after.content).toBe(before.content);
    expect(after.frontmatter).toMatchObject({ custom_field: 'keep me', status: 'archived', author: 'agent-a', contributors: ['agent-c'], title: 'Pool sizing' });
    expect(after.version).toBe(r.version);
  });

  test('lithos_write on a note with no id in its frontmatter writes down the id it already had: its edges and reads by id survive', async () => {
    const path = 'shared/concepts/Connection pooling.md';
    expect(t.vault.text(path)).not.toMatch(/^id:/m);
    const before = await t.call('lithos_read', { path });
    const edge = await t.call('lithos_edge_create', { from: POOL_ID, to: before.id, type: 'depends_on' });
    // The person's note (no author): the person writes it, as an agent's write would be proposed to them.
    const r = await t.call('lithos_write', { path, tags: ['concept', 'db'], expected_version: before.version }, HUMAN);
    expect(r.id).toBe(before.id);
    expect(t.vault.text(path)).toMatch(new RegExp(`^id: ${before.id}$`, 'm'));
    expect((await t.call('lithos_read', { id: before.id })).path).toBe(path);
    expect((await t.call('lithos_edge_list', { node: path, direction: 'in' })).edges.map((e: { edge_id: string }) => e.edge_id)).toEqual([edge.edge.edge_id]);
  });

  test('lithos_write keeps a Windows note\'s CRLF line endings and BOM, for a field change and for new content', async () => {
    const path = 'shared/Windows note.md';
    t.vault.put(path, '\uFEFF---\r\ntitle: Windows note\r\n---\r\nLine one.\r\nLine two.\r\n', false);
    await t.engine.reconcile();
    // TextDecoder drops a BOM unless told to keep it.
    const raw = async () => new TextDecoder('utf-8', { ignoreBOM: true }).decode(await t.vault.readBytes(path));
    // Written by the person in a Windows editor: the person's note, which they update without expected_version.
    await t.call('lithos_write', { path, tags: ['win'] }, HUMAN);
    const fieldsOnly = await raw();
    expect(fieldsOnly.startsWith('\uFEFF---\r\n')).toBe(true);
    expect(fieldsOnly.replace(/\r\n/g, '')).not.toContain('\n'); // every line ends in CRLF, none in a bare LF
    expect(fieldsOnly).toContain('Line one.\r\nLine two.\r\n');
    await t.call('lithos_write', { path, content: 'New line.\nAnother.\n' }, HUMAN);
    const newContent = await raw();
    expect(newContent.startsWith('\uFEFF')).toBe(true);
    expect(newContent).toContain('New line.\r\nAnother.\r\n');
    expect(newContent.replace(/\r\n/g, '')).not.toContain('\n');
    expect((await t.call('lithos_read', { path })).frontmatter.tags).toEqual(['win']);
  });

  test('lithos_delete moves the note to .trash/ and reports it; it is gone from search, list and read', async () => {
    const r = await t.call('lithos_delete', { path: 'shared/concepts/Connection pooling.md' }, HUMAN);
    expect(r).toEqual({ deleted: { id: expect.any(String), path: 'shared/concepts/Connection pooling.md', title: 'Connection pooling', version: expect.any(String) }, trashed_to: '.trash/shared/concepts/Connection pooling.md' });
    expect(t.vault.text('.trash/shared/concepts/Connection pooling.md')).toContain('reuses database connections');
    expect((await t.call('lithos_search', { query: 'reuses database connections' })).results.map((h: { path: string }) => h.path)).not.toContain('shared/concepts/Connection pooling.md');
    expect((await t.call('lithos_list', {})).total).toBe(2);
    await expect(t.call('lithos_read', { path: 'shared/concepts/Connection pooling.md' })).rejects.toMatchObject({ code: 'not_found' });
  });

  test('edges: create (upsert), list with both ends, update; they show in lithos_related with their type', async () => {
    const c = await t.call('lithos_edge_create', { from: POOL_ID, to: 'shared/concepts/Connection pooling.md', type: 'depends_on', weight: 0.8, evidence: { quote: 'pool' } });
    expect(c.created).toBe(true);
    expect(c.edge).toMatchObject({ from_id: POOL_ID, to_path: 'shared/concepts/Connection pooling.md', type: 'depends_on', weight: 0.8, provenance_actor: 'agent-a', provenance_type: 'agent', namespace: 'project/atlas' });
    const again = await t.call('lithos_edge_create', { from: POOL_ID, to: 'shared/concepts/Connection pooling.md', type: 'depends_on', weight: 0.9 });
    expect(again).toMatchObject({ created: false, edge: { edge_id: c.edge.edge_id, weight: 0.9 } });
    // Restating an edge without its weight keeps the weight (it was reset to 0.5).
    expect(await t.call('lithos_edge_create', { from: POOL_ID, to: 'shared/concepts/Connection pooling.md', type: 'depends_on' })).toMatchObject({ created: false, edge: { weight: 0.9 } });
    expect((await t.call('lithos_edge_list', { node: 'shared/concepts/Connection pooling.md', direction: 'in' })).edges.map((e: { edge_id: string }) => e.edge_id)).toEqual([c.edge.edge_id]);
    const u = await t.call('lithos_edge_update', { edge_id: c.edge.edge_id, weight: 0.2, conflict_state: 'open' }, HUMAN);
    expect(u.edge).toMatchObject({ weight: 0.2, conflict_state: 'open', type: 'depends_on', provenance_type: 'human', evidence: { quote: 'pool' } });
    const rel = await t.call('lithos_related', { id: POOL_ID });
    const pooling = rel.related.find((x: { path: string }) => x.path === 'shared/concepts/Connection pooling.md');
    expect(pooling.why).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'edge', type: 'depends_on', direction: 'out' })]));
    expect((await t.call('lithos_stats', {})).edges).toBe(1);
  });
});

describe('honest semantics', () => {
  /** A space the capability table describes as a sentence model (`hf-…`); its vectors are the hashing space's, only its label is under test. */
  const modelLabelled = (): Embedder => {
    const hashing = new HashingEmbedder();
    return { spaceId: 'hf-twin-sentence-model', dimensions: hashing.dimensions, embed: (texts) => hashing.embed(texts) };
  };

  test('with a semantic space active, lithos_semantic names it and gives no install hint', async () => {
    await t.engine.services.search.addSpace(modelLabelled());
    const r = await t.call('lithos_semantic', { query: 'reusing database connections', k: 3 });
    expect(r.spaces).toEqual([{ id: 'hash-ngram-v2-384', semantic: false }, { id: 'hf-twin-sentence-model', semantic: true }]);
    expect(r.hint).toBeUndefined();
    expect(r.results.length).toBeGreaterThan(0);
  });

  test('the descriptions say what the hashing space cannot do and where the result says which space answered', () => {
    const semantic = TOOL_CATALOG.find((d) => d.name === 'lithos_semantic')!.description;
    expect(semantic).toMatch(/hashing space only matches shared words/);
    expect(semantic).toContain('`spaces`');
    expect(TOOL_CATALOG.find((d) => d.name === 'lithos_retrieve')!.description).toMatch(/meaning only with a semantic model/);
  });
});

describe('catalog', () => {
  test('names are lithos_*, unique; descriptions tell agents when to use the tool; search/semantic point to lithos_retrieve', () => {
    const names = TOOL_CATALOG.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const d of TOOL_CATALOG) {
      expect(d.name).toMatch(/^lithos_[a-z_]+$/);
      expect(d.description.length).toBeGreaterThan(80);
      expect(d.annotations.openWorldHint).toBe(false);
      if (d.annotations.readOnlyHint) expect(d.annotations.destructiveHint).toBe(false);
    }
    for (const n of ['lithos_search', 'lithos_semantic']) expect(TOOL_CATALOG.find((d) => d.name === n)!.description).toContain('lithos_retrieve');
  });

  test('read tools are read-only and idempotent; writers are not read-only', () => {
    const ro = TOOL_CATALOG.filter((d) => d.annotations.readOnlyHint && !CONFLICT_TOOLS.includes(d) && !COORDINATION_TOOLS.includes(d) && !LCMA_TOOLS.includes(d) && !MEMORY_TOOLS.includes(d) && !GOVERNANCE_TOOLS.includes(d) && !EVENT_TOOLS.includes(d) && !LEDGER_TOOLS.includes(d)).map((d) => d.name).sort(); // coordination: test/coordination/tools.test.ts
    expect(ro).toEqual(['lithos_edge_list', 'lithos_links', 'lithos_list', 'lithos_read', 'lithos_related', 'lithos_search', 'lithos_semantic', 'lithos_stats', 'lithos_tags']);
    for (const d of TOOL_CATALOG.filter((x) => x.annotations.readOnlyHint)) expect(d.annotations.idempotentHint).toBe(true);
    expect(TOOL_CATALOG.find((d) => d.name === 'lithos_write')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
  });

  test('the caller used by this spec is an agent', () => {
    expect(AGENT).toEqual({ kind: 'agent', agent_id: 'agent-a' });
  });
});
