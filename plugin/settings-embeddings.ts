import { Setting } from 'obsidian';
import { DEFAULT_MODEL_ID, MINILM_SPACE_ID } from '../shared/index/embedders/transformers-embedder';
import type { ModelFolderStatus } from '../shared/index/embedders/model-download';
import type { SettingsTabHost } from './settings-tab';
import { DEFAULT_MODEL_FOLDER, vaultFolder, type EmbeddingModel } from './settings';
import { MINILM_FILES, megabytes, reembedCommandLine, type ModelDownloadState } from './model-downloads';
import type { MiniLmState } from './minilm/minilm-switch';

/**
 * Settings → Embeddings: the offline hashing embedder, or all-MiniLM-L6-v2 downloaded into a vault
 * folder with a progress bar. Once the folder is complete the plugin embeds with it itself (the row
 * *Use in Obsidian* follows that); the CLI line stays as the faster way for a large vault.
 */
export function embeddingSection(el: HTMLElement, host: SettingsTabHost, redraw: () => void): void {
  const s = host.settings().embeddings;
  const spaces = host.controls()?.activeSpaces() ?? [];
  new Setting(el)
    .setName('Embeddings')
    .setHeading()
    .setDesc(`Active spaces: ${spaces.length ? spaces.join(', ') : '(memory not open)'}.`);
  new Setting(el)
    .setName('Embedding model')
    .setDesc('Offline: nothing to download, works everywhere, but it matches shared words and word pieces, not meaning. all-MiniLM-L6-v2: download it here (about 105 MB), then Obsidian embeds and searches with it beside the offline space, without network, and finds related notes worded differently.')
    .addDropdown((d) => {
      d.addOption('hashing', 'Offline (hashing, no download)');
      d.addOption('minilm-l6-v2', 'all-MiniLM-L6-v2');
      d.setValue(s.model).onChange(async (v) => {
        await host.save((x) => void (x.embeddings.model = v as EmbeddingModel));
        redraw();
      });
    });
  if (s.model === 'minilm-l6-v2') miniLmRows(el, host);
}

function miniLmRows(el: HTMLElement, host: SettingsTabHost): void {
  const downloads = host.models();
  const folder = (): string => host.settings().embeddings.modelFolder;
  let disk: ModelFolderStatus | null = null;

  new Setting(el)
    .setName('Model folder')
    .setDesc(`Vault folder models are kept in, as <folder>/${DEFAULT_MODEL_ID}/. The CLI reads ${DEFAULT_MODEL_FOLDER} by default.`)
    .addText((t) =>
      t
        .setPlaceholder(DEFAULT_MODEL_FOLDER)
        .setValue(folder())
        .onChange(async (v) => {
          const f = vaultFolder(v === '' ? DEFAULT_MODEL_FOLDER : v);
          if (f === null) return;
          await host.save((x) => void (x.embeddings.modelFolder = f));
          await refresh();
        }),
    );

  const row = new Setting(el).setName('Download all-MiniLM-L6-v2');
  const statusEl = row.descEl.createDiv({ cls: 'lithos-model-status' });
  const bar = row.descEl.createEl('progress', { cls: 'lithos-model-progress' });
  row.addButton((b) => b.setButtonText('Download').onClick(() => void downloads.start(folder()).then(refresh)));
  row.addButton((b) => b.setButtonText('Cancel').onClick(() => downloads.cancel()));

  const inUse = new Setting(el).setName('Use in Obsidian');
  const inUseEl = inUse.descEl.createDiv({ cls: 'lithos-minilm-status' });
  inUse.addButton((b) => b.setButtonText('Retry').onClick(() => void host.retryMiniLm()));
  const paintUse = (s: MiniLmState): void => {
    inUseEl.textContent = useInObsidianText(s);
  };
  host.miniLm().follow(paintUse);
  paintUse(host.miniLm().state);

  const use = new Setting(el).setName('Embed with the CLI');
  use.addButton((b) =>
    b.setButtonText('Copy command').onClick(() => {
      const vault = host.vaultPath();
      if (vault) void navigator.clipboard.writeText(reembedCommandLine(vault, host.settings().bridge.cliPath, folder()));
    }),
  );

  const paint = (state: ModelDownloadState): void => {
    const running = state.kind === 'running';
    if (running) bar.removeAttribute('hidden');
    else bar.setAttribute('hidden', '');
    statusEl.textContent = statusText(state, disk);
    if (running && state.progress?.total) {
      bar.max = state.progress.total;
      bar.value = state.progress.loaded;
    } else if (running) {
      // Indeterminate until every file's size is known.
      bar.removeAttribute('value');
    }
    use.setDesc(useText(host, folder(), disk));
  };
  const refresh = async (): Promise<void> => {
    disk = await downloads.status(folder()).catch(() => null);
    paint(downloads.state);
  };
  downloads.follow((state) => {
    paint(state);
    if (state.kind !== 'running') void refresh();
  });
  paint(downloads.state);
  void refresh();
}

function statusText(state: ModelDownloadState, disk: ModelFolderStatus | null): string {
  if (state.kind === 'running') {
    const p = state.progress;
    if (!p) return 'Starting the download…';
    const of = p.total === null ? `${megabytes(p.loaded)}` : `${megabytes(p.loaded)} of ${megabytes(p.total)}`;
    return `Downloading ${p.file} (${p.filesDone + 1}/${p.files}): ${of}`;
  }
  if (disk?.complete) return `Downloaded (${megabytes(disk.bytes)}) in ${disk.folder}.`;
  if (state.kind === 'failed') return `Failed: ${state.message}`;
  if (state.kind === 'cancelled') return 'Cancelled. Download resumes where it stopped.';
  if (disk && disk.missing.length < MINILM_FILES.length) return `Incomplete: ${disk.missing.join(', ')} missing. Download fetches only those.`;
  return `Not downloaded. Fetches ${MINILM_FILES.join(', ')} from huggingface.co/${DEFAULT_MODEL_ID} and the ONNX runtime from cdn.jsdelivr.net (about 105 MB).`;
}

/** Where the model runs: a worker leaves Obsidian's thread alone; the fallback holds it for each chunk. */
function whereText(fallback: string | null): string {
  return fallback === null ? ' It runs in a background worker.' : ` It runs on Obsidian's main thread (${fallback}), so typing can pause while it embeds.`;
}

function useInObsidianText(s: MiniLmState): string {
  switch (s.kind) {
    case 'off':
      return 'Not in use.';
    case 'waiting':
      return 'Starts once the memory is open.';
    case 'incomplete':
      return `Not in use yet: ${s.folder} lacks ${s.missing.join(', ')}. Download it first.`;
    case 'loading':
      return 'Loading all-MiniLM-L6-v2 from the model folder…';
    case 'embedding':
      return `Embedding notes in the background: ${s.done}/${s.total}. New and edited notes get MiniLM vectors already.${whereText(s.fallback)}`;
    case 'active':
      return `In use: Obsidian searches ${MINILM_SPACE_ID} beside the offline space, and embeds new and edited notes with it (${s.embedded} notes checked at the start).${whereText(s.fallback)}`;
    case 'failed':
      return `Failed: ${s.message} Obsidian keeps the offline space.`;
  }
}

function useText(host: SettingsTabHost, folder: string, disk: ModelFolderStatus | null): string {
  const vault = host.vaultPath();
  if (!disk?.complete || !vault) return 'On a desktop, the lithos CLI can embed every note too (lithos reembed <vault> --space minilm-l6-v2), with Obsidian closed.';
  return (
    'Faster for a large vault: close Obsidian (the CLI needs the vault to itself) and run: ' +
    `${reembedCommandLine(vault, host.settings().bridge.cliPath, folder)}. ` +
    'The plugin then finds those vectors cached.'
  );
}
