import { Notice, Setting, type TextComponent } from 'obsidian';
import { asLithosError } from '../shared/errors';
import { LEARNING_FILE } from '../shared/learning/learning-store';
import { TUNABLES, defaultOf, overrideOf, rangeText, tunableProblem, type Tunable } from '../shared/learning/tunables';
import type { LithosSettings } from './settings';
import type { SettingsTabHost } from './settings-tab';
import { flag, onCommit } from './settings-commit';
import type { EngineControls } from './engine-controls';
import { gitSection } from './settings-git';
import { devicesSection } from './settings-devices';

/**
 * Settings → Learning: the schedules of consolidation and decay (this device's data.json), and the learning
 * constants (the vault's .lithos/learning.json through the engine's learning store, so `lithos mcp` and the CLI learn
 * the same way). Both apply without a restart.
 */
export function learningSection(el: HTMLElement, host: Pick<SettingsTabHost, 'settings' | 'save' | 'controls'>): void {
  const l = host.settings().learning;
  new Setting(el).setName('Learning').setHeading();
  const hours = (name: string, desc: string, value: number, set: (x: LithosSettings, h: number) => void): void => {
    new Setting(el)
      .setName(name)
      .setDesc(desc)
      .addText((t) => {
        const problem = (v: string): string | null => (v.trim() !== '' && Number(v) >= 0.25 && Number(v) <= 720 ? null : 'Hours, from 0.25 to 720.');
        t.setValue(String(value)).onChange((v) => flag(t, problem(v)));
        onCommit(t, (v) => (problem(v) ? flag(t, problem(v)) : host.save((x) => set(x, Number(v)))));
      });
  };
  hours('Consolidation every (hours)', 'Reinforce, promote, maintain concepts and summaries on this schedule.', l.consolidationIntervalHours, (x, h) => void (x.learning.consolidationIntervalHours = h));
  hours('Decay every (hours)', 'Fade unused strengths and weak rule/agent edges on this schedule.', l.decayIntervalHours, (x, h) => void (x.learning.decayIntervalHours = h));
  constantsSection(el, host.controls());
  devicesSection(el, host.controls());
}

function constantsSection(el: HTMLElement, controls: Pick<EngineControls, 'learning' | 'git'> | null): void {
  const heading = new Setting(el).setName('Learning constants').setHeading();
  if (!controls) {
    heading.setDesc(`Open the memory first: the learning constants live in the vault (.lithos/${LEARNING_FILE}).`);
    return;
  }
  const store = controls.learning;
  heading.setDesc(
    store.problem
      ? `${store.problem} A change here replaces the file.`
      : `The vault's, in .lithos/${LEARNING_FILE}: each change applies to the next feedback or decay run and is audited. Empty: the default.`,
  );
  const fields: TextComponent[] = [];
  for (const t of TUNABLES) {
    const override = overrideOf(store.overrides(), t);
    new Setting(el)
      .setName(t.key)
      .setDesc(`${t.desc} Default ${defaultOf(t)}; ${rangeText(t)}.`)
      .addText((c) => {
        fields.push(c);
        // Checked as typed, saved when the edit is committed (Enter or leaving the field): each save is an
        // audited change of how the vault learns, and typing 0.035 must not apply and audit 0 and 0.03 first.
        c.setPlaceholder(String(defaultOf(t)))
          .setValue(override === undefined ? '' : String(override))
          .onChange((v) => void checkField(c, t, v));
        onCommit(c, (v) => saveField(store, c, t, v));
      });
  }
  new Setting(el)
    .setName('Reset to defaults')
    .setDesc(`Every learning constant back to its default (.lithos/${LEARNING_FILE} keeps no override).`)
    .addButton((b) =>
      b.setButtonText('Reset').onClick(() =>
        store.reset().then(
          () => {
            for (const f of fields) {
              f.setValue('');
              flag(f, null);
            }
          },
          (err: unknown) => new Notice(`Lithos: the learning constants were not reset: ${asLithosError(err).message}`),
        ),
      ),
    );
  gitSection(el, controls);
}


/** Empty: the default (null). A value out of range is refused with its reason on the field; undefined then. */
function checkField(c: TextComponent, t: Tunable, raw: string): number | null | undefined {
  const text = raw.trim();
  const value = text === '' ? null : Number(text);
  const problem = value === null ? null : tunableProblem(t, Number.isNaN(value) ? text : value);
  if (problem) return void flag(c, `${t.key} ${problem}.`);
  flag(c, null);
  return value;
}

/** Saves a committed edit; a refused value is not saved. */
function saveField(store: EngineControls['learning'], c: TextComponent, t: Tunable, raw: string): Promise<unknown> | undefined {
  const value = checkField(c, t, raw);
  if (value === undefined) return;
  return store.update(t.key, value).catch((err: unknown) => flag(c, asLithosError(err).message));
}
