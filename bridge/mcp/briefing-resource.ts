import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListResourcesRequestSchema, McpError, ReadResourceRequestSchema, type Resource } from '@modelcontextprotocol/sdk/types.js';
import type { SessionIdentity } from '../../shared/governance/session-identity';
import { toToolError } from '../../shared/tools/errors';
import type { ToolDispatcher } from '../../shared/tools/types';

/** The L0 briefing as an MCP resource (docs/ledger.md → Briefing): the text lithos_briefing returns. */
export const BRIEFING_URI = 'lithos://briefing';

const RESOURCE: Resource = {
  uri: BRIEFING_URI,
  name: 'briefing',
  title: 'Lithos briefing',
  description: 'Read at session start: decisions in force, what is dead or refuted, contested claims, open conflicts. Only notes you can read.',
  mimeType: 'text/markdown',
};

/**
 * Serves the briefing resource for the session's agent: read through the same dispatcher and session as the
 * tool, so the same gate judges what it shows (a session without an agent yet reads what an unnamed agent may).
 * The tool profile does not apply: it keeps tools/list small, and a resource is not listed with the tools.
 */
export function serveBriefing(server: Server, dispatcher: ToolDispatcher, identity: SessionIdentity): void {
  server.setRequestHandler(ListResourcesRequestSchema, () => Promise.resolve({ resources: [RESOURCE] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    if (req.params.uri !== BRIEFING_URI) throw new McpError(ErrorCode.InvalidParams, `No resource "${req.params.uri}"; this server offers ${BRIEFING_URI}.`, { uri: req.params.uri });
    try {
      const caller = { kind: 'agent' as const, agent_id: identity.agentId, ...(identity.key ? { key: identity.key } : {}) };
      const r = (await dispatcher.call('lithos_briefing', {}, caller)) as { briefing: string };
      return { contents: [{ uri: BRIEFING_URI, mimeType: 'text/markdown', text: r.briefing }] };
    } catch (err) {
      const e = toToolError(err);
      throw new McpError(e.code === 'internal' ? ErrorCode.InternalError : ErrorCode.InvalidRequest, e.message, e);
    }
  });
}
