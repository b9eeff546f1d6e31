import { Setting } from 'obsidian';
import { DECAY, FEEDBACK } from '../shared/learning/constants';
import type { LithosSettings } from './settings';
import type { SettingsTabHost } from './settings-tab';

/** Settings → Learning: the schedules of consolidation and decay, and the learning constants. */
export function learningSection(el: HTMLElement, host: SettingsTabHost): void {
  const l = host.settings().learning;
  new Setting(el)
    .setName('Learning')
    .setHeading()
    .setDesc(
      `Constants (tuned by lithos eval, not per vault): used +${FEEDBACK.used_salience} salience, misleading ${FEEDBACK.misleading_salience}, quarantine at ${FEEDBACK.quarantine_at} misleading marks; ` +
        `edges halve over ${DECAY.edge_half_life_days} days unused, spaced repetition over ${DECAY.spaced_rep_half_life_days} days.`,
    );
  const hours = (name: string, desc: string, value: number, set: (x: LithosSettings, h: number) => void): void => {
    new Setting(el)
      .setName(name)
      .setDesc(desc)
      .addText((t) =>
        t.setValue(String(value)).onChange((v) => {
          const h = Number(v);
          if (Number.isFinite(h) && h >= 0.25 && h <= 720) return host.save((x) => set(x, h));
        }),
      );
  };
  hours('Consolidation every (hours)', 'Reinforce, promote, maintain concepts and summaries on this schedule.', l.consolidationIntervalHours, (x, h) => void (x.learning.consolidationIntervalHours = h));
  hours('Decay every (hours)', 'Fade unused strengths and weak rule/agent edges on this schedule.', l.decayIntervalHours, (x, h) => void (x.learning.decayIntervalHours = h));
}
