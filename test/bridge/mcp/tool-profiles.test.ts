import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../../bridge/mcp/server';
import type { AgentToolRules } from '../../../bridge/mcp/agent-tool-rules';
import { DEFAULT_POLICY, type AgentTools } from '../../../shared/governance/policy';
import { agentTools } from '../../../shared/governance/tool-access';
import { TOOL_CATALOG } from '../../../shared/tools/catalog';
import { CORE_TOOLS, parseProfileSpec, resolveProfile, type ToolProfileSpec } from '../../../shared/governance/tool-profiles';
import { openTools, type ToolHarness } from '../../tools/fixture';

/**
 * Tool profiles (shared/governance/tool-profiles.ts) as an MCP client sees them: the server (bridge/mcp/server.ts) over
 * the SDK's in-memory transport, with the tools of the fixture vault. Every tool definition listed sits in the
 * agent's context before its first call, so `core` must stay small; `full` is the whole catalog.
 */

const AGENT_TOOLS = agentTools(TOOL_CATALOG).map((d) => d.name);
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let t: ToolHarness;
beforeAll(async () => {
  t = await openTools();
});
afterAll(async () => {
  await t.engine.close();
});

/** A client connected to a server with this --tools (or none) and these vault rules (or none). */
async function connect(opts: { profile?: ToolProfileSpec; rules?: AgentTools; warnings?: string[]; agent?: string | null } = {}): Promise<Client> {
  const rules: AgentToolRules | undefined = opts.rules && { current: async () => opts.rules! };
  const logger = { ...silent, warn: (m: string) => opts.warnings?.push(m) };
  const server = createMcpServer(t.tools, { version: '0.0.0', defaultAgent: opts.agent === undefined ? 'agent-a' : opts.agent, logger, rules, profile: opts.profile });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'profiles-test', version: '1.0.0' });
  await client.connect(b);
  return client;
}

/** What tools/list weighs on the wire: the JSON of its result. */
async function listed(client: Client): Promise<{ names: string[]; bytes: number }> {
  const r = await client.listTools();
  return { names: r.tools.map((x) => x.name), bytes: Buffer.byteLength(JSON.stringify(r), 'utf8') };
}

function errorOf(r: unknown): { code: string; message: string; data: Record<string, unknown> } {
  const res = r as CallToolResult;
  expect(res.isError).toBe(true);
  return JSON.parse((res.content[0] as { text: string }).text);
}

test('core lists at most 10 tools in at most 12 KB of tools/list JSON, with or without --agent; full lists every agent tool', async () => {
  const core = await listed(await connect({ profile: 'core' }));
  expect(core.names).toEqual(AGENT_TOOLS.filter((n) => CORE_TOOLS.includes(n)));
  expect(core.names.length).toBeLessThanOrEqual(10);
  expect(core.names).not.toContain('lithos_semantic'); // without a model it is lexical-ish; lithos_retrieve covers vectors
  expect(core.bytes).toBeLessThanOrEqual(12 * 1024);
  // A bridge started without --agent offers agent_id on every tool: still within the budget.
  const unnamed = await listed(await connect({ profile: 'core', agent: null }));
  expect(unnamed.bytes).toBeGreaterThan(core.bytes);
  expect(unnamed.bytes).toBeLessThanOrEqual(12 * 1024);
  const full = await listed(await connect({ profile: 'full' }));
  expect(full.names).toEqual(AGENT_TOOLS);
  process.stdout.write(`tools/list JSON: core ${core.names.length} tools, ${core.bytes} bytes (${unnamed.bytes} without --agent); full ${full.names.length} tools, ${full.bytes} bytes\n`);
});

test('without --tools the vault policy chooses, and a policy without a profile gets core', async () => {
  expect((await listed(await connect({ rules: DEFAULT_POLICY.agent_tools }))).names).toEqual(AGENT_TOOLS.filter((n) => CORE_TOOLS.includes(n)));
  expect((await listed(await connect({ rules: { ...DEFAULT_POLICY.agent_tools, profile: 'full' } }))).names).toEqual(AGENT_TOOLS);
  expect((await listed(await connect({ rules: { ...DEFAULT_POLICY.agent_tools, profile: ['lithos_read', 'lithos_tags'] } }))).names).toEqual(['lithos_read', 'lithos_tags']);
});

test('--tools wins over the policy profile, but the policy still hides what it turns off', async () => {
  const rules: AgentTools = { read_only: true, disabled: ['lithos_search'], profile: 'core' };
  const names = (await listed(await connect({ profile: 'full', rules }))).names;
  expect(names).toContain('lithos_task_list'); // full, by the flag
  expect(names).not.toContain('lithos_search'); // disabled in the vault
  expect(names).not.toContain('lithos_write'); // read-only vault
});

test('a call to a tool outside the profile is forbidden, naming how to offer it; a tool inside is answered', async () => {
  const byFlag = await connect({ profile: 'core' });
  const e = errorOf(await byFlag.callTool({ name: 'lithos_tags', arguments: {} }));
  expect(e).toMatchObject({ code: 'forbidden', data: { tool: 'lithos_tags', profile: 'core' } });
  expect(e.message).toContain('--tools full or --tools core,lithos_tags');
  const r = (await byFlag.callTool({ name: 'lithos_read', arguments: { path: 'project/atlas/Pool sizing.md' } })) as CallToolResult;
  expect(r.isError).toBeFalsy();

  const byPolicy = await connect({ rules: DEFAULT_POLICY.agent_tools });
  const p = errorOf(await byPolicy.callTool({ name: 'lithos_stats', arguments: {} }));
  expect(p.code).toBe('forbidden');
  expect(p.message).toContain('agent_tools.profile in .lithos/policy.json');
  // A name no catalog has is still not_found, as before profiles.
  expect(errorOf(await byPolicy.callTool({ name: 'lithos_nope', arguments: {} })).code).toBe('not_found');
});

test('a policy profile naming an unknown tool keeps the known ones and warns, once', async () => {
  const warnings: string[] = [];
  const client = await connect({ rules: { ...DEFAULT_POLICY.agent_tools, profile: ['lithos_read', 'lithos_raed'] }, warnings });
  expect((await listed(client)).names).toEqual(['lithos_read']);
  await listed(client);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain('lithos_raed');
});

describe('--tools', () => {
  test('is core, full, or a comma list of tool names', () => {
    expect(parseProfileSpec('core')).toBe('core');
    expect(parseProfileSpec(' full ')).toBe('full');
    expect(parseProfileSpec('lithos_read, lithos_write,lithos_read')).toEqual(['lithos_read', 'lithos_write']);
    expect(() => parseProfileSpec(' , ')).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });

  test('an unknown tool name is an invalid_argument listing the valid ones', () => {
    let err: unknown;
    try {
      resolveProfile(['lithos_read', 'lithos_serach'], AGENT_TOOLS);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'invalid_argument', data: { unknown: ['lithos_serach'] } });
    expect((err as Error).message).toContain('lithos_search');
    // The person's own tools are not agents' tools.
    expect(() => resolveProfile(['lithos_proposal_accept'], AGENT_TOOLS)).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });
});
