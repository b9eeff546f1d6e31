/**
 * The contract of one MCP tool. Each `lithos_*` tool is one file exporting a ToolDef; catalog.ts lists them.
 * The same definitions serve the stdio MCP server (bridge), the websocket host (plugin) and tests, so a
 * tool behaves identically in relay and headless mode.
 */
import type { z } from 'zod';
import type { Interpreter } from '../retrieval/terrace2';
import type { Sampler } from '../learning/reflection-wording';
import type { SessionCaller } from '../session/caller';
import type { MemoryGateway, MemorySession } from '../session/memory-session';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

/** Who is calling: the bridge passes the agent identity with every call. */
export type ToolCaller = SessionCaller;

export interface ToolContext {
  /** The memory as this caller may use it: every read and write through it applies the caller's scope. */
  memory: MemorySession;
  caller: ToolCaller;
  /**
   * How lithos_delete removes a note: `port` (default) leaves it to the host's vault port (the plugin's
   * trashes per the user's setting); `trash_folder` moves it into the vault's `.trash/` (headless, where the
   * port would unlink it for good).
   */
  deleteTo?: 'port' | 'trash_folder';
  /**
   * Terrace 2's interpreter for this call only (relay mode: the calling bridge's MCP client samples). Absent:
   * the engine's own, if any. Per call, so one agent's model never serves another agent's retrieval.
   */
  interpreter?: Interpreter;
  /** Reflection's wording by the calling bridge's MCP client, for this call only (relay); absent: the engine's own, if any. */
  sampler?: Sampler;
}

/**
 * What a front door hands the dispatcher for one call: where to open the caller's session (the engine in a
 * composition root), and how deletes go. The dispatcher opens the session; a handler sees only that.
 */
export interface CallHost {
  gateway: MemoryGateway;
  deleteTo?: ToolContext['deleteTo'];
}

/** What a call may carry besides its arguments and caller. */
export interface CallOptions {
  interpreter?: Interpreter;
  /** Reflection's wording by the calling bridge's MCP client, for this call only (relay; learning/reflection-wording.ts). */
  sampler?: Sampler;
  /**
   * The bridge's own record of an MCP session (lithos_event_record of kind `session`, bridge/mcp/session-record.ts):
   * not a call the agent made, so no `tool_call` event. Honoured for that call only.
   */
  sessionRecord?: boolean;
}

export interface ToolDef<S extends z.ZodType = z.ZodType> {
  /** `lithos_*`, stable. */
  name: string;
  title: string;
  /** Written for agents: when to use it, when to use another tool instead. */
  description: string;
  input: S;
  annotations: ToolAnnotations;
  /** 'person': for the person's panels and commands only; agents never see it in tools/list. */
  audience?: 'person';
  /** Returns a JSON-serialisable result; throws LithosError on failure. */
  handler(args: z.infer<S>, ctx: ToolContext): Promise<unknown>;
}

/**
 * Runs a tool by name with unvalidated arguments. The MCP server and the websocket host both sit on this;
 * it validates with the tool's schema and throws LithosError (`invalid_argument`, `not_found`, …).
 */
export interface ToolDispatcher {
  list(): readonly ToolDef[];
  call(name: string, args: unknown, caller: ToolCaller, opts?: CallOptions): Promise<unknown>;
}
