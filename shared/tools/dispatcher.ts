import { LithosError, asLithosError } from '../errors';
import type { CallOptions, ToolCaller, ToolContext, ToolDef, ToolDispatcher } from './types';
import { invalidArguments } from './errors';
import { toolRefusal } from '../governance/tool-access';
import { AGENT_KEY_ENV } from '../governance/agent-keys';

/** Builds the context a handler runs in; a headless host may open the vault here, on the first call. */
export type ContextFactory = (caller: ToolCaller) => ToolContext | Promise<ToolContext>;

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
        const made = await makeContext(caller);
        // The key is checked here, for every front door that dispatches, and kept no further.
        const verified = caller.kind === 'human' || (await made.engine.agentKeys.verify(caller.agent_id, caller.key));
        const checked: ToolCaller = { kind: caller.kind, agent_id: caller.agent_id, ...(verified ? {} : { verified: false }) };
        const ctx = { ...made, caller: checked, ...(opts?.interpreter ? { interpreter: opts.interpreter } : {}) };
        // A hand edit of .lithos/policy.json applies from the next call (read at most every few seconds).
        await ctx.engine.policy.refresh();
        if (checked.kind === 'agent' && checked.verified === false && !def.annotations.readOnlyHint) {
          throw new LithosError('forbidden', `"${def.name}" changes the vault, and this session is not verified: keys are issued in this vault, and the bridge did not present ${checked.agent_id === null ? 'one' : `agent "${checked.agent_id}"'s key`} (${AGENT_KEY_ENV}). An unverified session reads shared notes only.`, { tool: def.name, verified: false });
        }
        const why = toolRefusal(def, ctx.engine.policy.get().agent_tools);
        if (why) throw new LithosError('forbidden', why, { tool: def.name, read_only: ctx.engine.policy.get().agent_tools.read_only });
        return await def.handler(parsed.data, ctx);
      } catch (err) {
        throw asLithosError(err, 'internal');
      }
    },
  };
}
