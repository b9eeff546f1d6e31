import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../shared/ports';
import type { ToolCaller, ToolDef, ToolDispatcher } from '../../shared/tools/types';
import { compactJsonSchema, inputJsonSchema } from '../../shared/tools/json-schema';
import { toToolError } from '../../shared/tools/errors';
import { SessionIdentity, splitCaller, withAgentArg } from './caller';
import { BRIEFING_URI, serveBriefing } from './briefing-resource';
import { fromOriginalArgs } from './original-args';
import { agentTools, visibleTools } from '../../shared/governance/tool-access';
import type { AgentToolRules } from './agent-tool-rules';
import { DEFAULT_PROFILE, resolveProfile, type ToolProfile, type ToolProfileSpec } from '../../shared/governance/tool-profiles';
import { LithosError } from '../../shared/errors';
import type { AgentTools } from '../../shared/governance/policy';

export interface McpServerOptions {
  version: string;
  /** From --agent or LITHOS_AGENT_ID: the agent the session acts for; a call may name no other (caller.ts). */
  defaultAgent: string | null;
  /** LITHOS_AGENT_KEY: the key of that agent, where the vault issues keys (governance/agent-keys.ts). */
  agentKey?: string | null;
  logger: Logger;
  /** The vault policy's agent_tools: tools agents may not call are left out of tools/list. Absent: the whole catalog. */
  rules?: AgentToolRules;
  /** Told of every tool call while it runs, so a shutdown can let the calls in flight finish and answer. */
  track?: (call: Promise<unknown>) => void;
  /** `--tools`: the tools this bridge offers, whatever the vault policy's agent_tools.profile says. */
  profile?: ToolProfileSpec;
  /** Awaited before each tool call runs, with its caller (the session's record: session-record.ts). */
  beforeCall?: (caller: ToolCaller) => Promise<void>;
}

const INSTRUCTIONS = [
  'Lithos is a long-term memory kept as Markdown notes in an Obsidian vault, shared with a person and other agents.',
  `At session start read the resource ${BRIEFING_URI} (or call lithos_briefing): what is decided, dead, refuted or contested, so you do not repeat it.`,
  'To gather memory for a task use lithos_retrieve, then tell it what helped with lithos_feedback; for a quick lookup lithos_search; lithos_read to open a note; lithos_write to record what you learn.',
  'Rules every tool follows:',
  '- Name a note by exactly one of id, path or title (a title or alias resolves as an Obsidian [[link]]). Notes you may not see are reported as not found.',
  '- Pass agent_id only when the bridge was started without --agent (or LITHOS_AGENT_ID): the first one you pass is your identity for the whole session; another is forbidden.',
  '- Before updating or deleting a note, lithos_read it and pass its version as expected_version (required): if someone edited it since, you get a conflict (with the current version and a diff), never a silent overwrite. A note the person wrote or last edited is theirs: your change of it comes back as a proposal they accept.',
  '- Writing into another agent\'s namespace, a task you are not on, a namespace outside your allowlist, or as user_private is forbidden.',
  '- Long text comes a page at a time: a result with truncated true gives total_chars and next_offset; call again with offset set to it (lithos_read also reads one section by heading). Lists page with limit and next_cursor, and a page stops early when long; a value cut short ends with … and its item says truncated true.',
  '- Every result is JSON; an error is JSON {code, message, data}, and its message says what to do.',
  '- This bridge may offer only some tools (its profile): a forbidden error on a tool not offered says how to enable the rest (--tools full).',
].join('\n');

/**
 * The MCP face of a ToolDispatcher: tools/list from the catalog (answered at once, no vault needed) and
 * tools/call forwarded to the dispatcher, which is in-process (headless) or remote (relay). Every failure
 * becomes `isError: true` with the JSON `{code, message, data}` as text.
 */
export function createMcpServer(dispatcher: ToolDispatcher, opts: McpServerOptions): Server {
  const server = new Server({ name: 'lithos-memory', title: 'Lithos Memory', version: opts.version }, { capabilities: { tools: { listChanged: true }, resources: {} }, instructions: INSTRUCTIONS });
  const tools: Tool[] = dispatcher.list().map((def) => ({
    name: def.name,
    title: def.title,
    description: def.description,
    // agent_id is offered only to a session that has no agent yet: with --agent it could only repeat it.
    inputSchema: compactJsonSchema(opts.defaultAgent === null ? withAgentArg(def, inputJsonSchema(def)) : inputJsonSchema(def)),
    annotations: listedAnnotations(def.annotations),
  }));
  const byName = new Map(dispatcher.list().map((d) => [d.name, d]));
  // One server per stdio session: the agent it acts for is fixed here (caller.ts).
  const identity = new SessionIdentity(opts.defaultAgent, 'when it started, by --agent, LITHOS_AGENT_ID or its first call', opts.agentKey ?? null);
  // Callers over MCP are agents: the person's own tools (proposal decisions) are not offered to them.
  const agentNames = agentTools(dispatcher.list()).map((d) => d.name);
  // A bad --tools fails here, before the server starts: the person sees it at once.
  const fixed = opts.profile === undefined ? null : resolveProfile(opts.profile, agentNames);
  const profileOf = policyProfile(agentNames, opts.logger);
  const current = async (): Promise<{ rules: AgentTools | null; profile: ToolProfile }> => {
    const rules = opts.rules ? await opts.rules.current() : null;
    return { rules, profile: fixed ?? profileOf(rules?.profile) };
  };

  serveBriefing(server, dispatcher, identity);
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const { rules, profile } = await current();
    const allowed = new Set((rules ? visibleTools(dispatcher.list(), rules) : agentTools(dispatcher.list())).map((d) => d.name));
    return { tools: tools.filter((t) => allowed.has(t.name) && profile.tools.has(t.name)) };
  });
  server.setRequestHandler(CallToolRequestSchema, (req): Promise<CallToolResult> => {
    const call = callTool(req.params.name, req.params.arguments);
    opts.track?.(call);
    return call;
  });
  const callTool = async (name: string, rawArgs: Record<string, unknown> | undefined): Promise<CallToolResult> => {
    try {
      const def = byName.get(name);
      if (agentNames.includes(name)) {
        const { profile } = await current();
        if (!profile.tools.has(name)) throw notInProfile(name, profile, fixed !== null);
      }
      const { caller, args } = splitCaller(def, fromOriginalArgs(def, rawArgs), identity);
      await opts.beforeCall?.(caller);
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

/**
 * The hints a client would not assume: the title is the tool's own (above), and a hint with the value the MCP
 * spec gives an absent one (readOnlyHint false, idempotentHint false) goes without saying.
 */
function listedAnnotations(a: ToolDef['annotations']): Tool['annotations'] {
  const { readOnlyHint, idempotentHint, ...always } = a;
  return { ...(readOnlyHint ? { readOnlyHint } : {}), ...(idempotentHint ? { idempotentHint } : {}), ...always };
}

/**
 * The vault policy's agent_tools.profile, resolved (DEFAULT_PROFILE when absent). Names the catalog does not
 * have are left out with a warning, once per wording: the policy is the person's file, and a typo in it must
 * not take the bridge down or every other tool with it.
 */
function policyProfile(catalog: readonly string[], logger: Logger): (spec: ToolProfileSpec | undefined) => ToolProfile {
  const warned = new Set<string>();
  return (spec) => {
    try {
      return resolveProfile(spec ?? DEFAULT_PROFILE, catalog);
    } catch (err) {
      const message = (err as Error).message;
      if (!warned.has(message)) logger.warn(`agent_tools.profile in .lithos/policy.json: ${message}`);
      warned.add(message);
      const known = (spec as readonly string[]).filter((n) => catalog.includes(n));
      return known.length > 0 ? { label: known.join(','), tools: new Set(known) } : resolveProfile(DEFAULT_PROFILE, catalog);
    }
  };
}

/** A call to a tool this bridge does not offer: forbidden, saying how to offer it. */
function notInProfile(name: string, profile: ToolProfile, byFlag: boolean): LithosError {
  const flag = `--tools full or --tools ${profile.label},${name}`;
  const message = byFlag
    ? `The tool "${name}" is not offered by this bridge (started with --tools ${profile.label}). Start it with ${flag}.`
    : `The tool "${name}" is not in this vault's tool profile "${profile.label}". Choose the full profile (Settings → Lithos Memory → Agents bridge, or agent_tools.profile in .lithos/policy.json), or start the bridge with ${flag}.`;
  return new LithosError('forbidden', message, { tool: name, profile: profile.label });
}
