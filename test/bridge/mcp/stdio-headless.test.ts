import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_CATALOG } from '../../../shared/tools/catalog';
import { agentTools } from '../../../shared/governance/tool-access';
import { RELOAD_MS } from '../../../shared/governance/policy';
import { buildBridge, connect, vaultFiles, type Session, toolJson } from './built-bridge';
import { HANG_MS } from '../../eventually';

/**
 * The BUILT bridge as an MCP client sees it: `lithos mcp --vault <tmp>` spawned over stdio and driven by the
 * SDK's Client, headless (the bridge opens the vault itself, on the first tool call).
 */

let build: ReturnType<typeof buildBridge>;
let root: string;
let vault: string;

beforeAll(() => {
  build = buildBridge();
}, 60_000);
afterAll(() => build?.cleanup());

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-mcp-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'project/atlas'), { recursive: true });
  writeFileSync(join(vault, 'project/atlas/Pool sizing.md'), '---\ntitle: Pool sizing\ntags: [atlas]\n---\nThe connection pool was too small. See [[Index]].\n');
  writeFileSync(join(vault, 'project/atlas/Index.md'), '---\nnote_type: concept\n---\nThe missing index caused the latency regression. Back to [[Pool sizing]].\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function errorOf(r: unknown): { code: string; message: string; data: Record<string, unknown> } {
  const res = r as CallToolResult;
  expect(res.isError).toBe(true);
  return JSON.parse((res.content[0] as { type: 'text'; text: string }).text);
}

/** The spawned bridge process (the SDK transport keeps it private; only its pid is public). */
function childOf(s: Session): ChildProcess {
  return (s.transport as unknown as { _process: ChildProcess })._process;
}

async function close(s: Session): Promise<void> {
  await s.client.close();
}

test('initialize and tools/list answer before any vault is opened; with --tools full every tool is listed with annotations and an input schema', async () => {
  const s = await connect(build.cli, vault, { agent: 'agent-a', tools: 'full' });
  try {
    expect(s.client.getServerVersion()).toMatchObject({ name: 'lithos-memory', version: expect.any(String) });
    expect(s.client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await s.client.listTools();
    // Every tool but the person's own (proposal decisions: ToolDef.audience).
    expect(tools.map((t) => t.name)).toEqual(agentTools(TOOL_CATALOG).map((d) => d.name));
    expect(TOOL_CATALOG.filter((d) => d.audience === 'person').map((d) => d.name)).toEqual(['lithos_proposal_accept', 'lithos_proposal_reject']);
    for (const t of tools) {
      const def = TOOL_CATALOG.find((d) => d.name === t.name)!;
      expect(t.description).toBe(def.description);
      // Hints at the MCP spec's default for an absent one (readOnlyHint, idempotentHint false) are not listed.
      expect({ readOnlyHint: false, idempotentHint: false, ...t.annotations }).toEqual(def.annotations);
      expect(t.inputSchema.type).toBe('object');
      // The session's agent is fixed by --agent: an agent_id argument could only repeat it, so none is offered.
      expect(t.inputSchema.properties).not.toHaveProperty('agent_id');
    }
    const write = tools.find((t) => t.name === 'lithos_write')!;
    expect(write.inputSchema.properties).toMatchObject({ title: { type: 'string' }, confidence: { type: 'number', minimum: 0, maximum: 1 }, expected_version: { type: 'string' } });
    // Nothing opened the vault yet: no stores, no lock.
    expect(existsSync(join(vault, '.lithos'))).toBe(false);
  } finally {
    await close(s);
  }
});

test('a session: write, read, search, semantic, list, links, tags, related, edges, stats, delete — then a clean shutdown releases the lock', async () => {
  const s = await connect(build.cli, vault, { agent: 'agent-a', tools: 'full' });
  let exited: Promise<number | null> | null = null;
  try {
    const w = toolJson(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'Retry budget', namespace: 'project/atlas', content: 'Retries are capped at three. See [[Pool sizing]].', tags: ['atlas'] } }));
    expect(w).toMatchObject({ path: 'project/atlas/Retry budget.md', created: true });
    const r = toolJson(await s.client.callTool({ name: 'lithos_read', arguments: { id: w.id } }));
    expect(r).toMatchObject({ version: w.version, frontmatter: { author: 'agent-a', contributors: ['agent-a'] } });
    expect(toolJson(await s.client.callTool({ name: 'lithos_search', arguments: { query: 'retries capped' } })).results[0].path).toBe('project/atlas/Retry budget.md');
    expect(toolJson(await s.client.callTool({ name: 'lithos_semantic', arguments: { query: 'connection pool', k: 2 } })).results.length).toBeGreaterThan(0);
    expect(toolJson(await s.client.callTool({ name: 'lithos_list', arguments: { namespace: 'project' } })).total).toBe(3);
    expect(toolJson(await s.client.callTool({ name: 'lithos_links', arguments: { path: 'project/atlas/Pool sizing.md' } })).incoming.map((x: { path: string }) => x.path)).toEqual(['project/atlas/Index.md', 'project/atlas/Retry budget.md']);
    expect(toolJson(await s.client.callTool({ name: 'lithos_tags', arguments: {} })).tags).toEqual([{ tag: 'atlas', count: 2 }]);
    const e = toolJson(await s.client.callTool({ name: 'lithos_edge_create', arguments: { from: w.id, to: 'project/atlas/Pool sizing.md', type: 'depends_on' } }));
    expect(toolJson(await s.client.callTool({ name: 'lithos_edge_update', arguments: { edge_id: e.edge.edge_id, weight: 0.9 } })).edge.weight).toBe(0.9);
    expect(toolJson(await s.client.callTool({ name: 'lithos_edge_list', arguments: { node: w.id } })).total).toBe(1);
    expect(toolJson(await s.client.callTool({ name: 'lithos_related', arguments: { id: w.id } })).related[0].path).toBe('project/atlas/Pool sizing.md');
    expect(toolJson(await s.client.callTool({ name: 'lithos_stats', arguments: {} }))).toMatchObject({ notes: 3, edges: 1 });
    // The coordination group rides on the same dispatcher and identity.
    const task = toolJson(await s.client.callTool({ name: 'lithos_task_create', arguments: { title: 'Tune the pool' } }));
    expect(task.task).toMatchObject({ title: 'Tune the pool' });
    expect(toolJson(await s.client.callTool({ name: 'lithos_agent_info', arguments: { id: 'agent-a' } })).agent).toMatchObject({ id: 'agent-a' });
    // The result once, as JSON text: no second copy in structuredContent to fill the agent's context twice.
    const once = (await s.client.callTool({ name: 'lithos_stats', arguments: {} })) as CallToolResult;
    expect(once.structuredContent).toBeUndefined();
    expect(once.content).toHaveLength(1);
    const current = toolJson(await s.client.callTool({ name: 'lithos_read', arguments: { path: 'project/atlas/Retry budget.md' } }));
    const d = toolJson(await s.client.callTool({ name: 'lithos_delete', arguments: { path: 'project/atlas/Retry budget.md', expected_version: current.version } }));
    expect(d.trashed_to).toBe('.trash/project/atlas/Retry budget.md');
    expect(existsSync(join(vault, '.trash/project/atlas/Retry budget.md'))).toBe(true);
    expect(existsSync(join(vault, '.lithos/lock.json'))).toBe(true);

    const proc = childOf(s);
    exited = new Promise((res) => proc.once('exit', (code) => res(code)));
  } finally {
    await close(s); // closes the bridge's stdin
  }
  expect(await exited).toBe(0);
  expect(existsSync(join(vault, '.lithos/lock.json'))).toBe(false);
  expect(existsSync(join(vault, '.lithos/memory.sqlite'))).toBe(true);
}, 60_000);

test('bad calls are isError with JSON {code, message, data}, and the vault is unchanged', async () => {
  const s = await connect(build.cli, vault, { tools: 'full' }); // no --agent: a call must name its agent to write
  try {
    // Without --agent every tool offers agent_id.
    expect((await s.client.listTools()).tools.every((t) => t.inputSchema.properties && 'agent_id' in t.inputSchema.properties)).toBe(true);
    const before = vaultFiles(vault);
    expect(errorOf(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'x', content: 'y' } })).message).toMatch(/--agent/);
    const bad = errorOf(await s.client.callTool({ name: 'lithos_write', arguments: { title: 7, confidence: 3, agent_id: 'agent-a' } }));
    expect(bad).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('title'), data: { tool: 'lithos_write', issues: expect.any(Array) } });
    expect(errorOf(await s.client.callTool({ name: 'lithos_write', arguments: { path: '../escape.md', title: 'x', content: 'y', agent_id: 'agent-a' } })).code).toBe('path_outside_vault');
    expect(errorOf(await s.client.callTool({ name: 'lithos_write', arguments: { path: '.obsidian/app.json', title: 'x', content: 'y', agent_id: 'agent-a' } })).code).toBe('path_outside_vault');
    expect(errorOf(await s.client.callTool({ name: 'lithos_read', arguments: { path: 'nope.md' } })).code).toBe('not_found');
    expect(errorOf(await s.client.callTool({ name: 'lithos_no_such_tool', arguments: {} })).code).toBe('not_found');
    expect(vaultFiles(vault)).toEqual(before);
    expect(existsSync(join(root, 'escape.md'))).toBe(false);
    // The first agent_id named fixed the session's agent: it writes, and no call may act as another agent.
    const w = toolJson(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'By call', content: 'x' } }));
    expect(toolJson(await s.client.callTool({ name: 'lithos_read', arguments: { id: w.id } })).frontmatter.author).toBe('agent-a');
    const other = errorOf(await s.client.callTool({ name: 'lithos_read', arguments: { id: w.id, agent_id: 'agent-z' } }));
    expect(other).toMatchObject({ code: 'forbidden', data: { session_agent: 'agent-a', agent_id: 'agent-z' } });
  } finally {
    await close(s);
  }
}, 60_000);

// Two MCP clients on one vault (Claude Desktop and Claude Code) start two lithos mcp: the second used to
// answer every call, reads included, with vault_locked for as long as the first ran.
test("an agent written for the original Lithos MCP server: its argument names (agent, query, limit, node_id, from_id) work", async () => {
  const s = await connect(build.cli, vault, { tools: 'full' }); // no --agent: the original names the caller on each call
  try {
    const w = toolJson(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'Original agent note', content: 'Pool sizing notes from the original client.', agent: 'orig-agent' } }));
    expect(toolJson(await s.client.callTool({ name: 'lithos_read', arguments: { id: w.id } })).frontmatter.author).toBe('orig-agent');
    expect(toolJson(await s.client.callTool({ name: 'lithos_search', arguments: { query: 'pool sizing', limit: 1 } })).results).toHaveLength(1);
    const r = toolJson(await s.client.callTool({ name: 'lithos_retrieve', arguments: { query: 'pool sizing', limit: 2, agent_id: 'orig-agent' } }));
    expect(r.nodes.length).toBeLessThanOrEqual(2);
    expect(toolJson(await s.client.callTool({ name: 'lithos_node_stats', arguments: { node_id: w.id } })).id).toBe(w.id);
    expect(toolJson(await s.client.callTool({ name: 'lithos_edge_list', arguments: { from_id: w.id } })).total).toBe(0);
  } finally {
    await close(s);
  }
}, 60_000);

test('a vault another process writes opens read-only: reads and retrieval work, writes are a clear vault_locked naming the holder, nothing is written', async () => {
  mkdirSync(join(vault, '.lithos'));
  const now = new Date().toISOString();
  // A live holder: this test process's pid, fresh heartbeat.
  writeFileSync(join(vault, '.lithos/lock.json'), JSON.stringify({ pid: process.pid, hostname: require('node:os').hostname(), started_at: now, heartbeat_at: now, owner: 'bridge', token: 'x' })); // eslint-disable-line @typescript-eslint/no-require-imports
  const before = vaultFiles(vault);
  const s = await connect(build.cli, vault, { agent: 'agent-a', tools: 'full' });
  try {
    expect((await s.client.listTools()).tools.length).toBe(agentTools(TOOL_CATALOG).length);
    expect(toolJson(await s.client.callTool({ name: 'lithos_stats', arguments: {} })).notes).toBeGreaterThan(0);
    expect(toolJson(await s.client.callTool({ name: 'lithos_search', arguments: { query: 'pool' } })).results.length).toBeGreaterThan(0);
    expect(toolJson(await s.client.callTool({ name: 'lithos_retrieve', arguments: { query_text: 'pool sizing' } })).nodes.length).toBeGreaterThan(0);
    const refused = errorOf(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'New', content: 'x' } }));
    expect(refused).toMatchObject({ code: 'vault_locked', message: expect.stringMatching(/lithos mcp \(pid \d+\) holds this vault's writer lock.*reads only/) });
    // A bad call still says what is wrong with it.
    expect(errorOf(await s.client.callTool({ name: 'lithos_write', arguments: { title: 7 } })).code).toBe('invalid_argument');
  } finally {
    await close(s);
  }
  expect(vaultFiles(vault)).toEqual(before);
  expect(JSON.parse(readFileSync(join(vault, '.lithos/lock.json'), 'utf8')).token).toBe('x');
}, 60_000);

test('SIGTERM flushes the stores and releases the lock, exit code 0', async () => {
  const s = await connect(build.cli, vault, { agent: 'agent-a', tools: 'full' });
  const proc = childOf(s);
  const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
  try {
    toolJson(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'Before term', content: 'kept' } }));
    expect(existsSync(join(vault, '.lithos/lock.json'))).toBe(true);
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    await close(s);
  }
  expect(existsSync(join(vault, '.lithos/lock.json'))).toBe(false);
  expect(existsSync(join(vault, 'Before term.md'))).toBe(true);
  // Reopened, the stores know the note without re-reading a changed file.
  const again = await connect(build.cli, vault, { agent: 'agent-a', tools: 'full' });
  try {
    expect(toolJson(await again.client.callTool({ name: 'lithos_search', arguments: { query: 'before term' } })).results[0].path).toBe('Before term.md');
  } finally {
    await close(again);
  }
}, 60_000);

test('a client that sends its calls and closes stdin still gets every answer: calls in flight finish before the vault closes', async () => {
  const proc = spawn(process.execPath, [build.cli, 'mcp', '--vault', vault, '--agent', 'piper'], { env: { PATH: process.env.PATH ?? '', NODE_PATH: join(__dirname, '../../../node_modules') } });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
  const send = (m: object) => proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } });
  send({ method: 'notifications/initialized' });
  send({ id: 2, method: 'tools/call', params: { name: 'lithos_search', arguments: { query: 'connection pool' } } });
  send({ id: 3, method: 'tools/call', params: { name: 'lithos_write', arguments: { title: 'Piped', content: 'sent just before hanging up' } } });
  proc.stdin.end();
  expect(await exited).toBe(0);
  const answers = new Map(out.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result: CallToolResult }).map((m) => [m.id, m.result]));
  expect(toolJson(answers.get(2)).results[0].path).toBe('project/atlas/Pool sizing.md');
  expect(toolJson(answers.get(3))).toMatchObject({ path: 'Piped.md', created: true });
  expect(vaultFiles(vault)['Piped.md']).toContain('sent just before hanging up');
  expect(existsSync(join(vault, '.lithos/lock.json'))).toBe(false);
}, 60_000);

test('an 11 MB message is answered with payload_too_large and the next call in the same session succeeds', async () => {
  const proc = spawn(process.execPath, [build.cli, 'mcp', '--vault', vault, '--agent', 'big'], { env: { PATH: process.env.PATH ?? '', NODE_PATH: join(__dirname, '../../../node_modules') } });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  proc.stderr.resume();
  const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
  const huge = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lithos_write', arguments: { title: 'Huge', content: 'x'.repeat(11 * 1024 * 1024) } } };
  const next = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lithos_write', arguments: { title: 'After', content: 'Written after the huge message.' } } };
  proc.stdin.write(JSON.stringify(huge) + '\n');
  proc.stdin.write(JSON.stringify(next) + '\n');
  // Both answered (in either order) before stdin closes: the session went on after the oversized line.
  const answered = () => out.split('\n').filter(Boolean).length >= 2;
  await new Promise<void>((resolve) => {
    const check = () => (answered() ? resolve() : proc.stdout.once('data', check));
    check();
  });
  proc.stdin.end();
  expect(await exited).toBe(0);
  const answers = new Map(out.trim().split('\n').map((l) => JSON.parse(l) as { id: number; error?: { code: number; data: Record<string, unknown> }; result?: CallToolResult }).map((m) => [m.id, m]));
  expect(answers.get(1)?.error).toMatchObject({ code: -32600, data: { code: 'payload_too_large' } });
  expect(toolJson(answers.get(2)?.result)).toMatchObject({ path: 'After.md', created: true });
  expect(vaultFiles(vault)['After.md']).toContain('Written after the huge message.');
  expect(vaultFiles(vault)['Huge.md']).toBeUndefined();
}, 60_000);

test("the vault policy's agent_tools: hidden from tools/list, refused headless, and a change is announced with tools/list_changed", async () => {
  mkdirSync(join(vault, '.lithos'), { recursive: true });
  const policy = (agentTools: object) => writeFileSync(join(vault, '.lithos/policy.json'), JSON.stringify({ version: 1, agent_tools: agentTools }));
  policy({ read_only: false, disabled: ['lithos_delete'] });
  const s = await connect(build.cli, vault, { agent: 'agent-a', tools: 'full' });
  try {
    expect(s.client.getServerCapabilities()?.tools).toMatchObject({ listChanged: true });
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('lithos_delete');
    expect(names).toContain('lithos_write');
    expect(names).toHaveLength(agentTools(TOOL_CATALOG).length - 1);
    // Hidden is not enough: a client that calls it anyway is refused before anything runs.
    const refused = errorOf(await s.client.callTool({ name: 'lithos_delete', arguments: { path: 'project/atlas/Index.md' } }));
    expect(refused).toMatchObject({ code: 'forbidden', data: { tool: 'lithos_delete' } });
    expect(refused.message).toContain('turned off for agents');
    expect(existsSync(join(vault, 'project/atlas/Index.md'))).toBe(true);

    // Read-only: every tool that writes goes from the list, and a write is refused naming where to change it.
    const announced = new Promise<void>((resolve) => s.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    policy({ read_only: true, disabled: [] });
    await announced;
    const readOnly = (await s.client.listTools()).tools;
    expect(readOnly.map((t) => t.name).sort()).toEqual(TOOL_CATALOG.filter((d) => d.annotations.readOnlyHint).map((d) => d.name).sort());
    // The open engine re-reads a hand edit of policy.json at most every RELOAD_MS: a probe that changes nothing
    // either way (feedback on a receipt that does not exist: not_found until the edit is seen, then forbidden) waits for it.
    const probe = async (): Promise<string> => {
      const r = (await s.client.callTool({ name: 'lithos_feedback', arguments: { receipt_id: 'no-such-receipt' } })) as CallToolResult;
      return r.isError ? (JSON.parse((r.content[0] as { text: string }).text) as { code: string }).code : 'allowed';
    };
    let seen = await probe();
    for (const until = Date.now() + RELOAD_MS + HANG_MS; seen !== 'forbidden' && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 250));
      seen = await probe();
    }
    expect(seen).toBe('forbidden');
    const write = errorOf(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'Sneaky', content: 'Must not land.', namespace: 'scratch' } }));
    expect(write.code).toBe('forbidden');
    expect(write.message).toContain('agents are read-only in this vault');
    expect(toolJson(await s.client.callTool({ name: 'lithos_search', arguments: { query: 'pool' } })).results.length).toBeGreaterThan(0);
  } finally {
    await close(s);
  }
});
