import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BRIEFING_URI } from '../../../bridge/mcp/briefing-resource';
import { createMcpServer } from '../../../bridge/mcp/server';
import { BRIEFING_MAX_LINES } from '../../../shared/ledger/briefing';
import { note } from '../../engine/harness';
import { FIXTURE, openTools, type ToolHarness } from '../../tools/fixture';

/**
 * The briefing as an MCP client reads it (bridge/mcp/briefing-resource.ts): listed as a resource, read for the
 * session's agent with the same text as lithos_briefing, and pointed to by the server's instructions.
 */

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let t: ToolHarness;
beforeAll(async () => {
  t = await openTools({
    ...FIXTURE,
    'project/atlas/Pool decision.md': note({ title: 'Pool of 40', note_type: 'decision', target: 'connection pool', author: 'agent-a', ledger_id: 'D001-aaaa' }, 'Forty connections.\n'),
    'agent/agent-b/Hunch.md': note({ title: 'Hunch qxsecretzz', note_type: 'claim', state: 'refuted', access_scope: 'agent_private', author: 'agent-b', ledger_id: 'E002-bbbb', evidence: [{ ref: 'x', stance: 'refutes' }] }, 'No.\n'),
  });
});
afterAll(async () => {
  await t.engine.close();
});

async function connect(agent: string | null): Promise<Client> {
  const server = createMcpServer(t.tools, { version: '0.0.0', defaultAgent: agent, logger: silent, profile: 'core' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'briefing-test', version: '1.0.0' });
  await client.connect(b);
  return client;
}

test('lithos://briefing is listed, and reads as lithos_briefing for the session\'s agent, hidden notes left out', async () => {
  const client = await connect('agent-a');
  expect(client.getInstructions()).toContain(BRIEFING_URI);
  expect((await client.listResources()).resources).toEqual([expect.objectContaining({ uri: BRIEFING_URI, mimeType: 'text/markdown' })]);
  const read = await client.readResource({ uri: BRIEFING_URI });
  const text = (read.contents[0] as { text: string }).text;
  expect(text).toContain('D001-aaaa "Pool of 40"');
  expect(text).not.toContain('qxsecretzz');
  expect(text).not.toContain('E002-bbbb');
  expect(text.split('\n').length - 1).toBeLessThanOrEqual(BRIEFING_MAX_LINES);
  // The resource is read even where the tool profile (core here) does not list the tool; the text is the tool's.
  const viaTool = await (await connect('agent-a')).callTool({ name: 'lithos_briefing', arguments: {} });
  const body = JSON.parse(((viaTool as CallToolResult).content[0] as { text: string }).text);
  expect(body.code).toBe('forbidden');
  const full = await t.call('lithos_briefing', {});
  expect(full.briefing).toBe(text);
});

test('agent-b reads its own refuted claim; an unknown resource is an error naming the briefing', async () => {
  const client = await connect('agent-b');
  const text = ((await client.readResource({ uri: BRIEFING_URI })).contents[0] as { text: string }).text;
  expect(text).toContain('E002-bbbb "Hunch qxsecretzz" is refuted');
  await expect(client.readResource({ uri: 'lithos://nothing' })).rejects.toThrow(BRIEFING_URI);
});
