import { Setting } from 'obsidian';
import type { SettingsTabHost } from './settings-tab';

/** Settings → Embeddings: which embedding spaces the memory uses. */
export function embeddingSection(el: HTMLElement, host: SettingsTabHost): void {
  const spaces = host.engine()?.activeSpaces() ?? [];
  new Setting(el)
    .setName('Embeddings')
    .setHeading()
    .setDesc(
      `Active spaces: ${spaces.length ? spaces.join(', ') : '(memory not open)'}. The plugin embeds with the offline hashing embedder (no download). ` +
        'all-MiniLM-L6-v2 runs in the headless bridge: lithos reembed <vault> --space minilm-l6-v2 --allow-remote.',
    );
}
