import { asLithosError } from '../shared/errors';
import type { AgentTools, Policy, PolicyStore } from '../shared/governance/policy';
import type { Logger } from '../shared/ports';
import type { PluginDataFile } from './startup/plugin-data';

/**
 * The vault policy with an older version's plugin-side tool settings folded in. Merged so that agents
 * never gain anything: read-only if either said so, disabled if either disabled it.
 */
export function withLegacyAgentTools(policy: Policy, legacy: AgentTools): Policy {
  const disabled = [...new Set([...policy.agent_tools.disabled, ...legacy.disabled])];
  return { ...policy, agent_tools: { ...policy.agent_tools, read_only: policy.agent_tools.read_only || legacy.read_only, disabled } };
}

/**
 * Read-only and switched-off tools saved in data.json by an older version move to the vault policy, once
 * (see LithosData): data.json forgets them only after the policy holds them. A failure is logged and the
 * move is tried again at the next start.
 */
export async function moveLegacyAgentTools(policy: Pick<PolicyStore, 'get' | 'set'>, file: PluginDataFile, logger: Logger): Promise<void> {
  const legacy = file.data.legacyAgentTools;
  if (!legacy) return;
  try {
    await policy.set(withLegacyAgentTools(policy.get(), legacy));
    await file.update((d) => void (d.legacyAgentTools = null));
    logger.info('read-only and switched-off tools moved from the plugin settings to the vault policy (.lithos/policy.json)');
  } catch (err) {
    logger.warn(`could not move the agents' tool settings to the vault policy: ${asLithosError(err).message}`);
  }
}
