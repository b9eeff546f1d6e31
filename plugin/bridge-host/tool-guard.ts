import { LithosError } from '../../shared/errors';
import type { ToolDef, ToolDispatcher } from '../../shared/tools/types';

/** The person's limits on what agents may call through the bridge (settings → Bridge). Read at every call. */
export interface ToolRules {
  /** Every tool that is not read-only (annotations.readOnlyHint false) is refused. */
  readOnly: boolean;
  /** Tool names that are hidden and refused. */
  disabledTools: readonly string[];
}

/** Why a tool may not be called under these rules, or null when it may. */
export function refusal(def: ToolDef, rules: ToolRules): string | null {
  if (rules.disabledTools.includes(def.name)) return `The tool "${def.name}" is turned off in this vault's Lithos settings (Bridge → tools).`;
  if (rules.readOnly && !def.annotations.readOnlyHint) return `The tool "${def.name}" changes the vault, and the Lithos bridge is in read-only mode (Settings → Lithos Memory → Bridge).`;
  return null;
}

/**
 * The dispatcher agents reach through the websocket host, narrowed by the person's settings: disabled and
 * (in read-only mode) writing tools are left out of `list` and refused by `call` with `forbidden` before
 * anything runs. Rules are read per call, so a settings change applies to the next call without a restart.
 */
export function guardDispatcher(inner: ToolDispatcher, rules: () => ToolRules): ToolDispatcher {
  return {
    list: () => inner.list().filter((def) => refusal(def, rules()) === null),
    async call(name, args, caller, opts) {
      const def = inner.list().find((d) => d.name === name);
      const why = def ? refusal(def, rules()) : null;
      if (why) throw new LithosError('forbidden', why, { tool: name, read_only: rules().readOnly });
      return inner.call(name, args, caller, opts);
    },
  };
}
