/**
 * The all-MiniLM-L6-v2 download the settings tab starts: one at a time, cancellable, followed by the
 * one settings view that is open. It lives on the plugin, not the tab, so closing the settings does not
 * stop a download; a notice says when it ends.
 */
import { asLithosError } from '../shared/errors';
import {
  downloadModel,
  modelFolderStatus,
  type DownloadProgress,
  type ModelFilePort,
  type ModelFolderStatus,
  type StreamingFetch,
} from '../shared/index/embedders/model-download';
import { hubManifest } from '../shared/index/embedders/model-manifest';
import { DEFAULT_MODEL_ID, MINILM_SPACE_ID } from '../shared/index/embedders/transformers-embedder';
import { launch, sh } from './mcp-config';
import { miniLmExpected, miniLmFiles, miniLmSources } from './minilm/load-minilm';

/**
 * fp32 weights: the file the bridge's embedder loads, so `lithos reembed` uses this folder as it is;
 * plus onnxruntime-web's wasm, which the plugin runs the model with.
 */
export const MINILM_FILES = miniLmFiles();

export type ModelDownloadState =
  | { kind: 'idle' }
  | { kind: 'running'; progress: DownloadProgress | null }
  | { kind: 'done'; bytes: number; folder: string }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' };

export interface ModelDownloadDeps {
  files: ModelFilePort;
  /** null where the app offers no fetch: the download then fails with a message saying so. */
  fetch: StreamingFetch | null;
  notify(message: string): void;
  /** The folder is complete: the plugin starts using the model. */
  downloaded?(): void;
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export class ModelDownloads {
  private current: ModelDownloadState = { kind: 'idle' };
  private abort: AbortController | null = null;
  private running: Promise<void> | null = null;
  private view: ((s: ModelDownloadState) => void) | null = null;

  constructor(private readonly deps: ModelDownloadDeps) {}

  get state(): ModelDownloadState {
    return this.current;
  }

  /** The settings view that shows this download; a new rendering replaces the last (null: none). */
  follow(view: ((s: ModelDownloadState) => void) | null): void {
    this.view = view;
  }

  /** What `<root>/Xenova/all-MiniLM-L6-v2/` holds now. */
  status(root: string): Promise<ModelFolderStatus> {
    return modelFolderStatus(this.deps.files, root, DEFAULT_MODEL_ID, MINILM_FILES);
  }

  /** Starts (or joins) the download into `<root>/Xenova/all-MiniLM-L6-v2/`; never rejects, the state says how it ended. */
  start(root: string): Promise<void> {
    this.running ??= this.run(root).finally(() => {
      this.running = null;
      this.abort = null;
    });
    return this.running;
  }

  cancel(): void {
    this.abort?.abort();
  }

  private set(s: ModelDownloadState): void {
    this.current = s;
    this.view?.(s);
  }

  private async run(root: string): Promise<void> {
    const fetch = this.deps.fetch;
    if (!fetch) {
      this.set({ kind: 'failed', message: 'This app offers no fetch() to download with; copy the model files into the folder by hand.' });
      return;
    }
    this.abort = new AbortController();
    this.set({ kind: 'running', progress: null });
    try {
      // The hub's sizes and sha256 for its files; the runtime's wasm, from a CDN, must be the bundled package's.
      const hub = await hubManifest({ modelId: DEFAULT_MODEL_ID, files: MINILM_FILES, fetch, signal: this.abort.signal });
      const expected = { ...(hub ?? {}), ...miniLmExpected() };
      const result = await downloadModel({
        modelId: DEFAULT_MODEL_ID,
        files: MINILM_FILES,
        sources: miniLmSources(),
        root,
        fetch,
        port: this.deps.files,
        signal: this.abort.signal,
        expected,
        onProgress: (progress) => this.set({ kind: 'running', progress }),
      });
      this.set({ kind: 'done', bytes: result.bytes, folder: result.folder });
      this.deps.notify(`Lithos: all-MiniLM-L6-v2 downloaded (${megabytes(result.bytes)}) into ${result.folder}.`);
      this.deps.downloaded?.();
    } catch (err) {
      const e = asLithosError(err);
      if (e.code === 'cancelled') return this.set({ kind: 'cancelled' });
      this.set({ kind: 'failed', message: e.message });
      this.deps.notify(`Lithos: the all-MiniLM-L6-v2 download failed: ${e.message}`);
    }
  }
}

/**
 * The CLI line that embeds every note with the downloaded model, with Obsidian closed (faster on a large
 * vault than the plugin's one-thread runtime). --model-dir always: a config.json edited by hand may name
 * another folder.
 */
export function reembedCommandLine(vaultPath: string, cliPath: string, modelFolder: string): string {
  const { command, prefix } = launch(cliPath.trim());
  const dir = `${vaultPath.replace(/[\\/]+$/, '')}/${modelFolder}`;
  return [command, ...prefix, 'reembed', vaultPath, '--space', MINILM_SPACE_ID, '--model-dir', dir].map(sh).join(' ');
}
