import { Notice, Setting } from 'obsidian';
import { asLithosError } from '../shared/errors';
import { AGENT_KEY_ENV } from '../shared/governance/agent-keys';
import type { EngineControls } from './engine-controls';

/** A key just issued: shown under its agent until the settings tab closes (only its hash is kept). */
export interface IssuedKey {
  agent: string;
  key: string;
}

/**
 * Per-agent keys (shared/governance/agent-keys.ts): the person issues one per agent here (or with
 * `lithos agents key`); once any is issued, a bridge must present its agent's key to act as that agent.
 * `redraw` draws the tab again, with the key just issued, if any.
 */
export function agentKeysSetting(el: HTMLElement, controls: Pick<EngineControls, 'agentKeys'> | null, issued: IssuedKey | null, redraw: (issued: IssuedKey | null) => void): void {
  new Setting(el)
    .setName('Agent keys')
    .setHeading()
    .setDesc(`Issue a key to an agent and give it to that agent's bridge as ${AGENT_KEY_ENV} (the MCP config's "env"). Once any key is issued, a bridge without its agent's key sees only shared notes and may only read.`);
  if (!controls) {
    new Setting(el).setName('Keys').setDesc('Open the memory first: keys live in .lithos/agent-keys.json.');
    return;
  }
  if (controls.agentKeys.problem) new Setting(el).setName('Key file unreadable').setDesc(controls.agentKeys.problem);
  const fail = (err: unknown) => new Notice(`Lithos: ${asLithosError(err).message}`);
  for (const k of controls.agentKeys.list()) {
    new Setting(el)
      .setName(k.agent_id)
      .setDesc(`Key ${k.hint}…, issued ${k.issued_at.slice(0, 10)}.`)
      .addButton((b) => b.setButtonText('Revoke').onClick(() => controls.agentKeys.revoke(k.agent_id).then(() => redraw(null), fail)));
    if (issued?.agent === k.agent_id) shown(el, issued);
  }
  let agent = '';
  const issue = new Setting(el).setName('Issue a key').setDesc('The agent id its bridge uses (--agent). A new key replaces the agent\'s old one.');
  issue.addText((t) => t.setPlaceholder('agent id, e.g. claude-code').onChange((v) => void (agent = v.trim())));
  issue.addButton((b) =>
    b.setButtonText('Issue').onClick(async () => {
      if (!agent) return void new Notice('Lithos: name the agent first.');
      try {
        redraw({ agent, key: await controls.agentKeys.issue(agent) });
      } catch (err) {
        fail(err);
      }
    }),
  );
}

/** The new key, once: a read-only field to copy it from, and a copy button. */
function shown(el: HTMLElement, { agent, key }: IssuedKey): void {
  new Setting(el)
    .setName(`New key for ${agent}`)
    .setDesc(`Shown once. Put it in ${agent}'s MCP config: "env": { "${AGENT_KEY_ENV}": "…" }.`)
    .addText((t) => {
      t.setValue(key);
      t.inputEl.readOnly = true;
    })
    .addButton((b) => b.setButtonText('Copy').onClick(() => void navigator.clipboard.writeText(key).then(() => new Notice('Lithos: key copied.'))));
}
