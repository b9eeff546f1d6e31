/**
 * Which tools agents may call: the vault policy's `agent_tools` (policy.ts), enforced by the tool dispatcher
 * in every mode and applied to tools/list by the bridge. The person's own panels and commands are not tools.
 */
import type { AgentTools } from './policy';

/** What the rules read of a tool definition (tools/types.ts ToolDef has it): defined here, below tools/. */
export interface ToolFacts {
  name: string;
  annotations: { readOnlyHint: boolean };
  audience?: 'person';
}

const WHERE = 'Settings → Lithos Memory → Agents bridge, or agent_tools in .lithos/policy.json';

/** Why agents may not call this tool under these rules, or null when they may. */
export function toolRefusal(def: Pick<ToolFacts, 'name' | 'annotations'>, rules: AgentTools): string | null {
  if (rules.disabled.includes(def.name)) return `The tool "${def.name}" is turned off for agents in this vault (${WHERE}).`;
  if (rules.read_only && !def.annotations.readOnlyHint) {
    return `The tool "${def.name}" changes the vault, and agents are read-only in this vault (${WHERE}).`;
  }
  return null;
}

/** The tools agents see under these rules, in catalog order (never the person's own: ToolFacts.audience). */
export function visibleTools<T extends ToolFacts>(catalog: readonly T[], rules: AgentTools): T[] {
  return agentTools(catalog).filter((def) => toolRefusal(def, rules) === null);
}

/** The catalog without the tools meant for the person only (accepting or rejecting proposals). */
export function agentTools<T extends Pick<ToolFacts, 'audience'>>(catalog: readonly T[]): T[] {
  return catalog.filter((def) => def.audience !== 'person');
}

/** What a policy offers agents, for reports (`lithos policy`): the tools they may call, of how many agent tools in all. */
export function offeredTools(catalog: readonly ToolFacts[], rules: AgentTools): { visible: string[]; total: number } {
  return { visible: visibleTools(catalog, rules).map((d) => d.name), total: agentTools(catalog).length };
}
