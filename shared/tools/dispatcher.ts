import { LithosError, asLithosError } from '../errors';
import type { CallHost, CallOptions, ToolCaller, ToolContext, ToolDef, ToolDispatcher } from './types';
import { invalidArguments } from './errors';
import { toolCallRecord } from './events/tool-call-event';

/** Builds the context a handler runs in; a headless host may open the vault here, on the first call. */
export type ContextFactory = (caller: ToolCaller) => CallHost | Promise<CallHost>;

/**
 * The in-process dispatcher: finds the tool, validates the arguments with its schema (before any vault is
 * opened), runs it, and makes sure whatever escapes is a LithosError. A relay dispatcher implements the same
 * interface by forwarding calls, so the MCP server never knows which one it talks to.
 */
export function createDispatcher(catalog: readonly ToolDef[], makeContext: ContextFactory): ToolDispatcher {
  const byName = new Map<string, ToolDef>();
  for (const def of catalog) {
    if (byName.has(def.name)) throw new LithosError('internal', `Tool "${def.name}" is listed twice in the catalog.`);
    byName.set(def.name, def);
  }
  const list = Object.freeze([...catalog]);
  return {
    list: () => list,
    async call(name: string, args: unknown, caller: ToolCaller, opts?: CallOptions): Promise<unknown> {
      const def = byName.get(name);
      if (!def) {
        throw new LithosError('not_found', `Unknown tool "${String(name)}". Call tools/list for the available lithos_* tools.`, { tool: name });
      }
      const parsed = def.input.safeParse(args ?? {});
      if (!parsed.success) throw invalidArguments(def.name, parsed.error);
      try {
        const host = await makeContext(caller);
        // The session checks the key and reads the policy in force, for every front door that dispatches.
        const memory = await host.gateway.as(caller);
        // Every call the session let through or refused is an episodic event (batched, never failing the call),
        // but the bridge's own record of the session (the one call sessionRecord may name).
        const quiet = opts?.sessionRecord === true && def.name === 'lithos_event_record' && (parsed.data as { kind?: unknown }).kind === 'session';
        const toolCall: typeof memory.events.toolCall = quiet ? () => undefined : (c) => memory.events.toolCall(c);
        try {
          memory.checkTool(def);
          const ctx: ToolContext = { memory, caller: memory.caller, ...(host.deleteTo ? { deleteTo: host.deleteTo } : {}), ...(opts?.interpreter ? { interpreter: opts.interpreter } : {}), ...(opts?.sampler ? { sampler: opts.sampler } : {}) };
          const result = await def.handler(parsed.data, ctx);
          toolCall(toolCallRecord(def.name, parsed.data, { result }));
          return result;
        } catch (err) {
          toolCall(toolCallRecord(def.name, parsed.data, { code: asLithosError(err, 'internal').code }));
          throw err;
        }
      } catch (err) {
        throw asLithosError(err, 'internal');
      }
    },
  };
}
