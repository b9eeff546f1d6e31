import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../shared/ports';
import type { ToolDispatcher } from '../../shared/tools/types';
import { inputJsonSchema } from '../../shared/tools/json-schema';
import { toToolError } from '../../shared/tools/errors';
import { splitCaller, withAgentArg } from './caller';
import { fromOriginalArgs } from './original-args';
import { agentTools, visibleTools } from '../../shared/governance/tool-access';
import type { AgentToolRules } from './agent-tool-rules';

export interface McpServerOptions {
  version: string;
  /** From --agent or LITHOS_AGENT_ID; a call's own agent_id wins. */
  defaultAgent: string | null;
  logger: Logger;
  /** The vault policy's agent_tools: tools agents may not call are left out of tools/list. Absent: the whole catalog. */
  rules?: AgentToolRules;
  /** Told of every tool call while it runs, so a shutdown can let the calls in flight finish and answer. */
  track?: (call: Promise<unknown>) => void;
}

const INSTRUCTIONS = [
  'Lithos is a long-term memory kept as Markdown notes in an Obsidian vault, shared with a person and other agents.',
  'To gather memory for a task use lithos_retrieve; for a quick lookup lithos_search (words) or lithos_semantic (meaning); lithos_read to open a note.',
  'Record what you learn with lithos_write (pass expected_version when updating). Every result is JSON; errors are JSON {code, message, data}.',
].join(' ');

/**
 * The MCP face of a ToolDispatcher: tools/list from the catalog (answered at once, no vault needed) and
 * tools/call forwarded to the dispatcher, which is in-process (headless) or remote (relay). Every failure
 * becomes `isError: true` with the JSON `{code, message, data}` as text.
 */
export function createMcpServer(dispatcher: ToolDispatcher, opts: McpServerOptions): Server {
  const server = new Server({ name: 'lithos-memory', title: 'Lithos Memory', version: opts.version }, { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS });
  const tools: Tool[] = dispatcher.list().map((def) => ({
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: withAgentArg(def, inputJsonSchema(def)),
    annotations: { title: def.title, ...def.annotations },
  }));
  const byName = new Map(dispatcher.list().map((d) => [d.name, d]));
  // Callers over MCP are agents: the person's own tools (proposal decisions) are not offered to them.
  const agentNames = new Set(agentTools(dispatcher.list()).map((d) => d.name));

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (!opts.rules) return { tools: tools.filter((t) => agentNames.has(t.name)) };
    const shown = new Set(visibleTools(dispatcher.list(), await opts.rules.current()).map((d) => d.name));
    return { tools: tools.filter((t) => shown.has(t.name)) };
  });
  server.setRequestHandler(CallToolRequestSchema, (req): Promise<CallToolResult> => {
    const call = callTool(req.params.name, req.params.arguments);
    opts.track?.(call);
    return call;
  });
  const callTool = async (name: string, rawArgs: Record<string, unknown> | undefined): Promise<CallToolResult> => {
    try {
      const def = byName.get(name);
      const { caller, args } = splitCaller(def, fromOriginalArgs(def, rawArgs), opts.defaultAgent);
      const result = await dispatcher.call(name, args, caller);
      // The result once, as JSON text, and no structuredContent: clients differ in which of the two they give
      // the model (some both, some only structuredContent when present), so a second copy would either double
      // a long result in the agent's context or hide the text. No tool declares an outputSchema, so the spec
      // asks for no structuredContent.
      return { content: [{ type: 'text', text: JSON.stringify(result ?? null) }] };
    } catch (err) {
      const e = toToolError(err);
      if (e.code === 'internal') opts.logger.error(`${name} failed: ${e.message}`);
      else opts.logger.debug(`${name}: ${e.code}: ${e.message}`);
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(e) }] };
    }
  };
  return server;
}
