import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { FIXTURE, INDEX_ID, POOL_ID } from '../../tools/fixture';
import { buildBridge, connect, samplingClient, toolJson } from './built-bridge';

/**
 * Terrace 2 of retrieval through MCP sampling, end to end: the BUILT bridge (`lithos mcp`, headless) driven
 * by the SDK's Client over stdio. A `design` query whose scan is lukewarm (temperature > 0.25) wants the
 * interpretive pass; whether it happens depends on the client: one that declared sampling answers
 * sampling/createMessage, one without sampling leaves it skipped, one answering garbage makes it fail.
 */

let build: ReturnType<typeof buildBridge>;
let root: string;
let vault: string;

beforeAll(() => {
  build = buildBridge();
}, 60_000);
afterAll(() => build?.cleanup());

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-sampling-'));
  vault = join(root, 'vault');
  // The tools fixture's shared and project notes (the private one plays no part here).
  for (const [path, text] of Object.entries(FIXTURE)) {
    if (path.startsWith('agent/')) continue;
    mkdirSync(join(vault, dirname(path)), { recursive: true });
    writeFileSync(join(vault, path), text);
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A client that declares sampling and answers every sampling/createMessage with `answer`. */

const DESIGN = { query_text: 'connection pool', query_class: 'design' };

async function retrieveVia(client: Client | undefined): Promise<{ result: any; receipts: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- tool results are JSON
  const s = await connect(build.cli, vault, { agent: 'agent-a', client, tools: 'full' }); // lithos_receipts is not in core
  try {
    const result = toolJson(await s.client.callTool({ name: 'lithos_retrieve', arguments: DESIGN }));
    const receipts = toolJson(await s.client.callTool({ name: 'lithos_receipts', arguments: { receipt_id: result.receipt_id } }));
    return { result, receipts };
  } finally {
    await s.client.close();
  }
}

test('a client with sampling: terrace 2 asks its model and the canned selection becomes the result and the receipt', async () => {
  const asked: CreateMessageRequest['params'][] = [];
  const client = samplingClient(() => JSON.stringify({ selected: [INDEX_ID, POOL_ID], bridges: [{ a: INDEX_ID, b: POOL_ID, why: 'the index made the pool run dry' }], confidence: 0.8, follow_up_queries: [] }), asked);
  const { result, receipts } = await retrieveVia(client);

  expect(result.temperature).toBeGreaterThan(0.25); // the precondition: a lukewarm design query wants terrace 2
  expect(result.terrace2).toEqual({ wanted: true, why: expect.stringContaining('design query with temperature'), outcome: 'done: 2 nodes selected, confidence 0.80' });
  expect(result.terrace_reached).toBe(2);
  expect(result.nodes.map((n: { id: string }) => n.id)).toEqual([INDEX_ID, POOL_ID]);
  expect(result.nodes[0].reasons).toContain('interpreter: bridge to "Pool sizing" — the index made the pool run dry');

  expect(asked).toHaveLength(1);
  const prompt = (asked[0].messages[0].content as { type: 'text'; text: string }).text;
  expect(prompt).toContain('Query (design): connection pool');
  expect(prompt).toContain(`id=${POOL_ID} | Pool sizing | observation`);
  expect(prompt).toContain(`id=${INDEX_ID} | Index | concept`);

  expect(receipts.receipts).toHaveLength(1);
  expect(receipts.receipts[0]).toMatchObject({ terrace_reached: 2, terrace2: result.terrace2, agent_id: 'agent-a' });
  expect(receipts.receipts[0].final_nodes.map((n: { id: string }) => n.id)).toEqual([INDEX_ID, POOL_ID]);
}, 60_000);

test('a client without sampling: terrace 2 is wanted but skipped, and the receipt says why', async () => {
  const { result, receipts } = await retrieveVia(undefined);
  expect(result.temperature).toBeGreaterThan(0.25);
  expect(result.terrace_reached).toBe(1);
  expect(result.terrace2).toEqual({ wanted: true, why: expect.stringContaining('design query'), outcome: 'skipped: no interpreter configured (MCP sampling unavailable or not wired)' });
  expect(receipts.receipts[0].terrace2).toEqual(result.terrace2);
}, 60_000);

test('a client answering garbage: terrace 2 is skipped as "interpreter failed", the terrace-1 ranking is kept', async () => {
  const asked: CreateMessageRequest['params'][] = [];
  const client = samplingClient(() => 'I think Pool sizing is the most relevant note here.', asked);
  const { result, receipts } = await retrieveVia(client);
  expect(asked).toHaveLength(1);
  expect(result.terrace_reached).toBe(1);
  expect(result.terrace2.wanted).toBe(true);
  expect(result.terrace2.outcome).toBe('skipped: interpreter failed (the MCP client\'s sampling answer is not JSON: "I think Pool sizing is the most relevant note here.")');
  expect(result.nodes.map((n: { id: string }) => n.id)).toEqual(expect.arrayContaining([POOL_ID, INDEX_ID]));
  expect(receipts.receipts[0].terrace2).toEqual(result.terrace2);
}, 60_000);
