import type { ToolDef } from '../../shared/tools/types';
import { declares } from './caller';

/**
 * Arguments as agents written for the original Lithos MCP server (agent-lore/lithos) send them, renamed to
 * this server's: `agent` as the caller's identity, `query`/`limit` for retrieval and search, `node_id`,
 * `from_id`/`to_id`, `outcome`. A name is only renamed when the call does not also give this server's
 * own name, and never for a tool that declares the name itself (e.g. `agent` filters lithos_receipts).
 * tools/list shows only this server's names; the renaming is for scripted agents that call by name.
 */
const RENAMES: Record<string, Record<string, string>> = {
  lithos_search: { limit: 'k' },
  lithos_retrieve: { query: 'query_text', limit: 'max_context_nodes' },
  lithos_node_stats: { node_id: 'id' },
  lithos_task_complete: { outcome: 'output_text' },
};

export function fromOriginalArgs(def: ToolDef | undefined, args: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!def || !args) return args;
  const out = { ...args };
  const rename = (from: string, to: string): void => {
    if (!(from in out) || to in out || declares(def, from) || !declares(def, to)) return;
    out[to] = out[from];
    delete out[from];
  };
  for (const [from, to] of Object.entries(RENAMES[def.name] ?? {})) rename(from, to);
  // The original's edge list filters by either end; here one node and a direction.
  if (def.name === 'lithos_edge_list' && !('node' in out) && (typeof out.from_id === 'string') !== (typeof out.to_id === 'string')) {
    const outgoing = typeof out.from_id === 'string';
    out.node = outgoing ? out.from_id : out.to_id;
    out.direction ??= outgoing ? 'out' : 'in';
    delete out.from_id;
    delete out.to_id;
  }
  // The original names the caller `agent` on every writing tool; here that is agent_id.
  if (typeof out.agent === 'string' && !declares(def, 'agent') && out.agent_id === undefined) {
    out.agent_id = out.agent;
    delete out.agent;
  }
  return out;
}
