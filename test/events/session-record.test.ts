import { openHarness, type Harness } from '../engine/harness';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller } from '../../shared/tools/types';

/**
 * CallOptions.sessionRecord (shared/tools/dispatcher.ts): the bridge's own record of an MCP session is not a
 * tool call of the agent, so it leaves no `tool_call` event. It holds for that one call only — a
 * `session` event recorded with lithos_event_record — so a bridge cannot use it to hide an agent's calls.
 */
const AGENT: ToolCaller = { kind: 'agent', agent_id: 'agent-a' };
let h: Harness;

beforeEach(async () => {
  h = await openHarness({ 'notes/pool.md': '---\ntitle: Pool\n---\nThe pool was too small.\n' });
  await h.engine.reconcile();
});
afterEach(() => h.engine.close());

const toolCalls = async (): Promise<string[]> => {
  await h.engine.services.learning.events.flush();
  return h.engine.services.learning.memory.events
    .query({ kinds: ['tool_call'], limit: 50 })
    .map((e) => {
      const d = e.data as { tool: string; args: { kind?: string } };
      return d.args.kind ? `${d.tool}:${d.args.kind}` : d.tool;
    })
    .reverse();
};

test('a session record leaves only its session event; any other call marked so is still a tool call', async () => {
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine }));
  await tools.call('lithos_event_record', { kind: 'session', summary: 'session started: claude-code 2.1.0' }, AGENT, { sessionRecord: true });
  await tools.call('lithos_event_record', { kind: 'observation', summary: 'the pool is small' }, AGENT, { sessionRecord: true });
  await tools.call('lithos_search', { query: 'pool' }, AGENT, { sessionRecord: true });
  await tools.call('lithos_event_record', { kind: 'session', summary: 'my own session note' }, AGENT);

  expect(await toolCalls()).toEqual(['lithos_event_record:observation', 'lithos_search', 'lithos_event_record:session']);
  const sessions = h.engine.services.learning.memory.events.query({ kinds: ['session'], limit: 10 });
  expect(sessions.map((e) => [e.summary, e.actor, e.access_scope, e.namespace])).toEqual([
    ['my own session note', 'agent-a', 'agent_private', 'agent/agent-a'],
    ['session started: claude-code 2.1.0', 'agent-a', 'agent_private', 'agent/agent-a'],
  ]);
  // Recorded like any agent's event: audited.
  expect((await h.engine.services.governance.audit.recent({ action: 'event.record', limit: 10 })).map((e) => e.data.kind)).toEqual(['session', 'observation', 'session']);
});
