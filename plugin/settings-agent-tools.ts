import { Notice, Setting } from 'obsidian';
import { asLithosError } from '../shared/errors';
import type { AgentTools } from '../shared/governance/policy';
import { TOOL_CATALOG } from '../shared/tools/catalog';
import { CORE_TOOLS, DEFAULT_PROFILE } from '../shared/governance/tool-profiles';
import type { EngineControls } from './engine-controls';

/**
 * The vault policy's agent_tools (read-only, tools switched off): applied by the tool dispatcher and the
 * bridge's tools/list in every mode, so `lithos mcp` headless honours them too. Saved through the policy store
 * (audited); a change applies to the next call and the bridge tells connected clients the list changed.
 */
export function agentToolsSetting(el: HTMLElement, controls: Pick<EngineControls, 'policy'> | null, part: 'read-only' | 'tools'): void {
  if (part === 'tools') new Setting(el).setName('Tools').setHeading().setDesc('Switch a tool off to hide it from agents and refuse its calls (vault policy: .lithos/policy.json).');
  if (!controls) {
    new Setting(el).setName(part === 'read-only' ? 'Read-only' : 'Tools for agents').setDesc('Open the memory first: what agents may call lives in the vault policy (.lithos/policy.json).');
    return;
  }
  const update = (fn: (t: AgentTools) => AgentTools): Promise<unknown> => {
    const policy = controls.policy.get();
    return controls.policy.set({ ...policy, agent_tools: fn(policy.agent_tools) }).catch((err: unknown) => new Notice(`Lithos: not saved: ${asLithosError(err).message}`));
  };
  const rules = controls.policy.get().agent_tools;
  if (part === 'read-only') {
    new Setting(el)
      .setName('Read-only')
      .setDesc('Agents may read and retrieve; every tool that writes is refused (vault policy, also headless).')
      .addToggle((t) => t.setValue(rules.read_only).onChange((v) => update((r) => ({ ...r, read_only: v }))));
    return;
  }
  const profile = rules.profile ?? DEFAULT_PROFILE;
  new Setting(el)
    .setName('Tool profile')
    .setDesc(`The tools a bridge offers its agent (every tool listed costs the agent context): core is the ${CORE_TOOLS.length} everyday ones, full is every tool. A bridge started with --tools uses its own.`)
    .addDropdown((d) => {
      d.addOption('core', `core (${CORE_TOOLS.length} tools)`);
      d.addOption('full', 'full (every tool)');
      // A list written by hand in policy.json is shown as such, and kept until another choice is made.
      if (typeof profile !== 'string') d.addOption('custom', `custom (${profile.length} tools, from policy.json)`);
      d.setValue(typeof profile === 'string' ? profile : 'custom').onChange((v) => (v === 'core' || v === 'full' ? update((r) => ({ ...r, profile: v })) : undefined));
    });
  for (const def of TOOL_CATALOG) {
    new Setting(el)
      .setName(def.name)
      .setDesc(def.annotations.readOnlyHint ? `${def.title} (reads)` : `${def.title} (writes)`)
      .addToggle((t) =>
        t.setValue(!rules.disabled.includes(def.name)).onChange((on) =>
          update((r) => {
            const rest = r.disabled.filter((n) => n !== def.name);
            return { ...r, disabled: on ? rest : [...rest, def.name] };
          }),
        ),
      );
  }
}
