import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { FIXTURE, INDEX_ID, POOL_ID } from '../../tools/fixture';
import { buildBridge, connect, samplingClient, type Session, toolJson } from './built-bridge';
import { startCatalogHost, type CatalogHost } from './catalog-host';

/**
 * Terrace 2 of retrieval in RELAY mode, end to end: the BUILT bridge (`lithos mcp`) driven by the SDK's Client
 * over stdio, relaying to the plugin's BridgeHost (the real catalog over a real engine, in this process). The
 * plugin's engine has no model: when the agent's client declared sampling, the host asks the bridge to
 * interpret during the call and the bridge asks the client's model (sampling/createMessage).
 */

let build: ReturnType<typeof buildBridge>;
let root: string;
let vault: string;
let host: CatalogHost | null = null;
const sessions: Session[] = [];

beforeAll(() => {
  build = buildBridge();
}, 60_000);
afterAll(() => build?.cleanup());

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'lithos-relay-sampling-'));
  vault = join(root, 'vault');
  // The tools fixture's shared and project notes (the private one plays no part here).
  for (const [path, text] of Object.entries(FIXTURE)) {
    if (path.startsWith('agent/')) continue;
    mkdirSync(join(vault, dirname(path)), { recursive: true });
    writeFileSync(join(vault, path), text);
  }
  host = await startCatalogHost(vault);
});
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.client.close();
  await host?.stop();
  host = null;
  rmSync(root, { recursive: true, force: true });
});

/** A client that declares sampling and answers every sampling/createMessage with `answer`. */

const DESIGN = { query_text: 'connection pool', query_class: 'design' };
const CANNED = JSON.stringify({ selected: [INDEX_ID, POOL_ID], bridges: [{ a: INDEX_ID, b: POOL_ID, why: 'the index made the pool run dry' }], confidence: 0.8, follow_up_queries: [] });

async function retrieveAs(agent: string, client: Client | undefined): Promise<{ result: any; receipts: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- tool results are JSON
  const s = await connect(build.cli, vault, { agent, client, tools: 'full' }); // lithos_receipts is not in core
  sessions.push(s);
  const result = toolJson(await s.client.callTool({ name: 'lithos_retrieve', arguments: DESIGN }));
  const receipts = toolJson(await s.client.callTool({ name: 'lithos_receipts', arguments: { receipt_id: result.receipt_id } }));
  return { result, receipts };
}

test("a client with sampling: the plugin's engine reaches terrace 2 through the bridge, and the receipt says so", async () => {
  const asked: CreateMessageRequest['params'][] = [];
  const { result, receipts } = await retrieveAs('agent-a', samplingClient(() => CANNED, asked));

  expect(host!.calls.map((c) => c.tool)).toEqual(['lithos_retrieve', 'lithos_receipts']); // relayed, not headless
  expect(result.temperature).toBeGreaterThan(0.25); // the precondition: a lukewarm design query wants terrace 2
  expect(result.terrace2).toEqual({ wanted: true, why: expect.stringContaining('design query with temperature'), outcome: 'done: 2 nodes selected, confidence 0.80' });
  expect(result.terrace_reached).toBe(2);
  expect(result.nodes.map((n: { id: string }) => n.id)).toEqual([INDEX_ID, POOL_ID]);
  expect(result.nodes[0].reasons).toContain('interpreter: bridge to "Pool sizing" — the index made the pool run dry');

  expect(asked).toHaveLength(1);
  const prompt = (asked[0].messages[0].content as { type: 'text'; text: string }).text;
  expect(prompt).toContain('Query (design): connection pool');
  expect(prompt).toContain(`id=${POOL_ID} | Pool sizing | observation`);

  expect(receipts.receipts[0]).toMatchObject({ terrace_reached: 2, terrace2: result.terrace2, agent_id: 'agent-a' });
}, 60_000);

test('a client without sampling: terrace 2 is wanted but skipped, and the receipt says why', async () => {
  const { result, receipts } = await retrieveAs('agent-a', undefined);
  expect(host!.calls.map((c) => c.tool)).toEqual(['lithos_retrieve', 'lithos_receipts']);
  expect(result.temperature).toBeGreaterThan(0.25);
  expect(result.terrace_reached).toBe(1);
  expect(result.terrace2).toEqual({ wanted: true, why: expect.stringContaining('design query'), outcome: 'skipped: no interpreter configured (MCP sampling unavailable or not wired)' });
  expect(receipts.receipts[0].terrace2).toEqual(result.terrace2);
}, 60_000);

test('a client answering garbage: the failure crosses the relay and the receipt says "interpreter failed"', async () => {
  const asked: CreateMessageRequest['params'][] = [];
  const { result, receipts } = await retrieveAs('agent-a', samplingClient(() => 'I think Pool sizing is the most relevant note here.', asked));
  expect(asked).toHaveLength(1);
  expect(result.terrace_reached).toBe(1);
  expect(result.terrace2.outcome).toBe('skipped: interpreter failed (the MCP client\'s sampling answer is not JSON: "I think Pool sizing is the most relevant note here.")');
  expect(result.nodes.map((n: { id: string }) => n.id)).toEqual(expect.arrayContaining([POOL_ID, INDEX_ID]));
  expect(receipts.receipts[0].terrace2).toEqual(result.terrace2);
}, 60_000);

test("one agent's sampling never serves another agent's retrieval on the same host", async () => {
  const asked: CreateMessageRequest['params'][] = [];
  const a = await retrieveAs('agent-a', samplingClient(() => CANNED, asked));
  const b = await retrieveAs('agent-b', undefined);
  expect(a.result.terrace_reached).toBe(2);
  expect(b.result.terrace_reached).toBe(1);
  expect(b.result.terrace2.outcome).toBe('skipped: no interpreter configured (MCP sampling unavailable or not wired)');
  expect(asked).toHaveLength(1); // agent-a's model was asked for agent-a's call only
  expect(host!.calls.map((c) => c.caller.agent_id)).toEqual(['agent-a', 'agent-a', 'agent-b', 'agent-b']);
}, 60_000);
