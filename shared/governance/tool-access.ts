/**
 * Which tools agents may call: the vault policy's `agent_tools` (policy.ts), enforced by the tool dispatcher
 * in every mode and applied to tools/list by the bridge. The person's own panels and commands are not tools.
 */
import type { ToolDef } from '../tools/types';
import type { AgentTools } from './policy';

const WHERE = 'Settings → Lithos Memory → Agents bridge, or agent_tools in .lithos/policy.json';

/** Why agents may not call this tool under these rules, or null when they may. */
export function toolRefusal(def: { name: string; annotations: { readOnlyHint: boolean } }, rules: AgentTools): string | null {
  if (rules.disabled.includes(def.name)) return `The tool "${def.name}" is turned off for agents in this vault (${WHERE}).`;
  if (rules.read_only && !def.annotations.readOnlyHint) {
    return `The tool "${def.name}" changes the vault, and agents are read-only in this vault (${WHERE}).`;
  }
  return null;
}

/** The tools agents see under these rules, in catalog order (never the person's own: ToolDef.audience). */
export function visibleTools<T extends Pick<ToolDef, 'name' | 'annotations' | 'audience'>>(catalog: readonly T[], rules: AgentTools): T[] {
  return agentTools(catalog).filter((def) => toolRefusal(def, rules) === null);
}

/** The catalog without the tools meant for the person only (accepting or rejecting proposals). */
export function agentTools<T extends Pick<ToolDef, 'audience'>>(catalog: readonly T[]): T[] {
  return catalog.filter((def) => def.audience !== 'person');
}
