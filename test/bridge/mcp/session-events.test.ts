import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cli } from '../run-cli';
import { buildBridge, connect, toolJson } from './built-bridge';
import { startCatalogHost, type CatalogHost } from './catalog-host';
import { eventually } from '../../eventually';

/**
 * An agent's MCP session as episodic events (bridge/mcp/session-record.ts), end to end: the BUILT `lithos mcp`
 * driven by the SDK's Client over stdio. The session's start (at its first tool call) and its end (when the
 * client hangs up) are `session` events in the agent's private namespace, naming the client and, at the end,
 * how many tool calls it made — headless, and relayed to the plugin's host alike. They are the bridge's own
 * record, not tool calls of the agent.
 */
let build: ReturnType<typeof buildBridge>;
let root: string;
let vault: string;
let host: CatalogHost | null = null;

beforeAll(() => {
  build = buildBridge();
}, 60_000);
afterAll(() => build?.cleanup());

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-session-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'project'), { recursive: true });
  writeFileSync(join(vault, 'project/Pool sizing.md'), '---\ntitle: Pool sizing\n---\nThe connection pool was too small.\n');
});
afterEach(async () => {
  await host?.stop();
  host = null;
  rmSync(root, { recursive: true, force: true });
});

interface EventOut {
  kind: string;
  summary: string;
  actor: string;
  access_scope?: string;
  scope?: string;
  namespace: string;
  data: Record<string, unknown>;
}

/** Two calls from a client that names itself, then it hangs up. */
async function session(): Promise<{ seenDuring: EventOut[] }> {
  // lithos_events is not in the core profile; the session's own record needs no profile: it is the bridge's.
  const s = await connect(build.cli, vault, { agent: 'agent-a', tools: 'full', client: new Client({ name: 'claude-code', version: '2.1.0' }) });
  toolJson(await s.client.callTool({ name: 'lithos_search', arguments: { query: 'pool' } }));
  // The agent reads its own session back while it runs: the start is there already.
  const seenDuring = toolJson(await s.client.callTool({ name: 'lithos_events', arguments: { kinds: ['session'] } })).events as EventOut[];
  await s.client.close();
  return { seenDuring };
}

const started = { summary: 'session started: claude-code 2.1.0', actor: 'agent-a', namespace: 'agent/agent-a', data: { client: { name: 'claude-code', version: '2.1.0' }, started_at: expect.any(String) } };
const ended = {
  summary: 'session ended: claude-code 2.1.0, 2 tool calls',
  actor: 'agent-a',
  namespace: 'agent/agent-a',
  data: { client: { name: 'claude-code', version: '2.1.0' }, tool_calls: 2, duration_ms: expect.any(Number), started_at: expect.any(String), reason: expect.any(String) },
};

test('headless: the session\'s start and end are the agent\'s private events; they are not tool calls', async () => {
  const { seenDuring } = await session();
  expect(seenDuring).toEqual([expect.objectContaining({ ...started, scope: 'agent_private' })]);
  await eventually(() => !existsSync(join(vault, '.lithos/lock.json')), () => 'the bridge still holds the vault'); // it closed the vault

  const events = (await cli('events', vault, '--json')).json().events as (EventOut & { data: { tool?: string } })[];
  const sessions = events.filter((e) => e.kind === 'session');
  expect(sessions).toEqual([expect.objectContaining({ ...ended, access_scope: 'agent_private' }), expect.objectContaining({ ...started, access_scope: 'agent_private' })]);
  expect(events.filter((e) => e.kind === 'tool_call').map((e) => e.data.tool)).toEqual(['lithos_events', 'lithos_search']);
  const audit = (await cli('audit', 'verify', vault, '--json')).json();
  expect(audit).toMatchObject({ ok: true });
}, 60_000);

test('relayed to the plugin: the host records the same two events in its own engine', async () => {
  host = await startCatalogHost(vault);
  const h = host;
  const { seenDuring } = await session();
  expect(seenDuring).toEqual([expect.objectContaining({ ...started, scope: 'agent_private' })]);
  expect(h.calls.map((c) => c.tool)).toEqual(['lithos_search', 'lithos_events']);

  const sessions = () => h.engine.services.learning.memory.events.query({ kinds: ['session'], limit: 10 });
  await eventually(() => sessions().length === 2, () => sessions());
  expect(h.sessionRecords).toEqual([
    { tool: 'lithos_event_record', caller: { kind: 'agent', agent_id: 'agent-a' } },
    { tool: 'lithos_event_record', caller: { kind: 'agent', agent_id: 'agent-a' } },
  ]);
  expect(sessions()).toEqual([expect.objectContaining({ ...ended, access_scope: 'agent_private' }), expect.objectContaining({ ...started, access_scope: 'agent_private' })]);
  await h.engine.services.learning.events.flush();
  const calls = h.engine.services.learning.memory.events.query({ kinds: ['tool_call'], limit: 10 });
  expect(calls.map((e) => (e.data as { tool: string }).tool).sort()).toEqual(['lithos_events', 'lithos_search']);
}, 60_000);
