import { fromOriginalArgs } from '../../../bridge/mcp/original-args';
import { TOOL_CATALOG } from '../../../shared/tools/catalog';

/** Calls as an agent written for the original Lithos MCP server (agent-lore/lithos) makes them. */

const def = (name: string) => TOOL_CATALOG.find((d) => d.name === name)!;

test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
  ['lithos_write', { title: 'T', content: 'x', agent: 'orig' }, { title: 'T', content: 'x', agent_id: 'orig' }],
  ['lithos_delete', { id: 'n1', agent: 'orig' }, { id: 'n1', agent_id: 'orig' }],
  ['lithos_search', { query: 'pool', limit: 5 }, { query: 'pool', k: 5 }],
  ['lithos_retrieve', { query: 'retry storm', limit: 5, agent_id: 'orig' }, { query_text: 'retry storm', max_context_nodes: 5, agent_id: 'orig' }],
  ['lithos_node_stats', { node_id: 'n1' }, { id: 'n1' }],
  ['lithos_edge_list', { from_id: 'n1' }, { node: 'n1', direction: 'out' }],
  ['lithos_edge_list', { to_id: 'n2', type: 'supports' }, { node: 'n2', direction: 'in', type: 'supports' }],
  ['lithos_task_complete', { task_id: 't', agent: 'orig', outcome: 'done' }, { task_id: 't', agent: 'orig', output_text: 'done' }],
])('%s %o → %o', (name, given, expected) => {
  expect(fromOriginalArgs(def(name), given)).toEqual(expected);
});

test("this server's own names win, and a tool's own argument of that name is never renamed", () => {
  expect(fromOriginalArgs(def('lithos_search'), { query: 'q', limit: 5, k: 3 })).toEqual({ query: 'q', limit: 5, k: 3 });
  expect(fromOriginalArgs(def('lithos_retrieve'), { query_text: 'a', query: 'b' })).toEqual({ query_text: 'a', query: 'b' });
  expect(fromOriginalArgs(def('lithos_write'), { title: 'T', agent: 'x', agent_id: 'y' })).toEqual({ title: 'T', agent: 'x', agent_id: 'y' });
  // lithos_receipts filters by `agent`: it stays a filter.
  expect(fromOriginalArgs(def('lithos_receipts'), { agent: 'someone' })).toEqual({ agent: 'someone' });
  // Both ends of an edge: no single node to ask for, so the call stays as given (and is refused by the schema).
  expect(fromOriginalArgs(def('lithos_edge_list'), { from_id: 'a', to_id: 'b' })).toEqual({ from_id: 'a', to_id: 'b' });
});
