import { Setting } from 'obsidian';
import { asLithosError } from '../shared/errors';
import { LEARNING_FILE } from '../shared/learning/learning-store';
import type { EngineControls } from './engine-controls';
import { flag, onCommit } from './settings-commit';

/**
 * Settings → Learning → Git history: the repository whose commits become episodic events (git.repository in
 * the vault's .lithos/learning.json, like the learning constants; empty: the repository holding the vault),
 * what the last run found or why git history is skipped here (mobile), and a button to index now.
 */
export function gitSection(el: HTMLElement, controls: Pick<EngineControls, 'learning' | 'git'>): void {
  const git = controls.git;
  const heading = new Setting(el).setName('Git history').setHeading().setDesc(git?.state() ?? 'Git history is not indexed here.');
  const refresh = (): void => void heading.setDesc(git?.state() ?? '');
  const store = controls.learning;
  new Setting(el)
    .setName('git.repository')
    .setDesc(`Another repository to index, absolute or relative to the vault folder (in .lithos/${LEARNING_FILE}). Empty: the repository holding the vault.`)
    .addText((c) => {
      c.setPlaceholder('the vault’s repository').setValue(store.get().git.repository ?? '');
      onCommit(c, async (raw) => {
        const repository = raw.trim() === '' ? null : raw.trim();
        if (repository === store.get().git.repository) return;
        try {
          await store.set({ ...store.overrides(), git: { repository } });
          flag(c, null);
        } catch (err) {
          return flag(c, asLithosError(err).message);
        }
        await git?.indexNow();
        refresh();
      });
    });
  if (git)
    new Setting(el)
      .setName('Index git history now')
      .setDesc('Commits are indexed when the memory opens and after each decay run.')
      .addButton((b) => b.setButtonText('Index now').onClick(() => void git.indexNow().then(refresh)));
}
