/**
 * Loads a feature-extraction pipeline through transformers.js with per-load settings.
 * The library keeps its settings in one global `env`; we set ours, load, and put the previous
 * values back, one load at a time per library instance, so two vaults (or a test and the app)
 * never see each other's folders or remote switch.
 */
import { LithosError } from '../../errors';
import type {
  FeaturePipelineLike,
  FetchLike,
  ModelLoadProgress,
  TransformersEnvLike,
  TransformersLike,
  TransformersProgressInfo,
} from './transformers-types';
import { onnxFileFor, transformersModelFiles } from './model-files';

export interface PipelineLoadRequest {
  modelId: string;
  /** Downloads land in `<cacheDir>/<modelId>/`. */
  cacheDir?: string;
  /** Local models resolve as `<localModelPath>/<modelId>/`. */
  localModelPath?: string;
  allowRemote: boolean;
  dtype: 'fp32' | 'q8';
  onProgress?: (p: ModelLoadProgress) => void;
  fetch?: FetchLike;
}

const envLocks = new WeakMap<object, Promise<unknown>>();

/** Runs `fn` after every earlier load on the same `env` has settled. */
async function withEnvLock<T>(env: object, fn: () => Promise<T>): Promise<T> {
  const previous = envLocks.get(env) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  envLocks.set(env, run.catch(() => undefined));
  return run;
}

type EnvSnapshot = Pick<TransformersEnvLike, 'allowRemoteModels' | 'allowLocalModels' | 'localModelPath' | 'cacheDir' | 'fetch'>;

function snapshot(env: TransformersEnvLike): EnvSnapshot {
  const { allowRemoteModels, allowLocalModels, localModelPath, cacheDir, fetch } = env;
  return { allowRemoteModels, allowLocalModels, localModelPath, cacheDir, fetch };
}

/** `<root>/<modelId>` with the root's own separator, for messages that users copy into a file manager. */
export function modelFolder(root: string, modelId: string): string {
  const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/';
  const trimmed = root.replace(/[\\/]+$/, '');
  return `${trimmed}${sep}${modelId.split('/').join(sep)}`;
}

/** Forwards per-file steps with running byte counts, and one final `ready` with the totals. */
function progressRelay(onProgress: (p: ModelLoadProgress) => void) {
  const files = new Map<string, { loaded: number; total: number }>();
  const relay = (info: TransformersProgressInfo): void => {
    if (info.status === 'ready') {
      let loaded = 0;
      let total = 0;
      for (const f of files.values()) {
        loaded += f.loaded;
        total += f.total;
      }
      onProgress({ file: '', loaded, total, status: 'ready' });
      return;
    }
    // `progress_total` is the library's own aggregate of the per-file events; `ready` covers it.
    if (typeof info.file !== 'string') return;
    const known = files.get(info.file) ?? { loaded: 0, total: 0 };
    if (info.status === 'progress') {
      known.loaded = finite(info.loaded, known.loaded);
      known.total = finite(info.total, known.total);
    }
    files.set(info.file, known);
    onProgress({ file: info.file, loaded: known.loaded, total: known.total, status: info.status });
  };
  return relay;
}

function finite(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

const NETWORK_CODES = new Set(['ENOTFOUND', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function errorChain(err: unknown): Array<{ name?: string; message?: string; code?: string }> {
  const chain: Array<{ name?: string; message?: string; code?: string }> = [];
  let cur: unknown = err;
  while (cur && typeof cur === 'object' && chain.length < 5) {
    chain.push(cur);
    cur = (cur as { cause?: unknown }).cause;
  }
  return chain;
}

function isMissingModelError(err: unknown): boolean {
  return errorChain(err).some(
    (e) => e.name === 'ModelFileNotFoundError' || /not found locally|local_files_only|could not locate file/i.test(e.message ?? ''),
  );
}

function isNetworkError(err: unknown): boolean {
  return errorChain(err).some(
    (e) => (e.code !== undefined && NETWORK_CODES.has(e.code)) || (e.name === 'TypeError' && /fetch failed|network/i.test(e.message ?? '')),
  );
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Turns a library failure into the engine's error, naming the folder and the fix. */
export function loadError(err: unknown, req: PipelineLoadRequest, folder: string, onnxFile: string): LithosError {
  const cause = messageOf(err);
  const data = { modelId: req.modelId, folder, allowRemote: req.allowRemote, cause };
  const names = transformersModelFiles(req.dtype).filter((f) => f !== onnxFile);
  const files = `${names.join(', ')} and ${onnxFile}`;
  if (isMissingModelError(err) && !req.allowRemote) {
    return new LithosError(
      'model_missing',
      `Embedding model "${req.modelId}" was not found in ${folder} and downloads are switched off. ` +
        `Download it with a checksum check (lithos model pull <vault>; Obsidian: Settings → Lithos Memory → Embeddings → Download), allow model downloads once (lithos: --allow-remote, or allow_remote_models in .lithos/config.json), or copy its files (${files}) into that folder.`,
      data,
    );
  }
  if (isMissingModelError(err) || (req.allowRemote && isNetworkError(err))) {
    return new LithosError(
      'model_missing',
      `Embedding model "${req.modelId}" was not found in ${folder} and could not be downloaded (${cause}). ` +
        `Check the network and the model id, or copy its files (${files}) into that folder.`,
      data,
    );
  }
  return new LithosError('embedding_failed', `Could not load embedding model "${req.modelId}" from ${folder}: ${cause}`, data);
}

/** Loads the pipeline with this request's folders and remote switch, restoring the library's settings after. */
export async function loadFeaturePipeline(lib: TransformersLike, req: PipelineLoadRequest): Promise<FeaturePipelineLike> {
  const env = lib.env;
  const onnxFile = onnxFileFor(req.dtype);
  return withEnvLock(env, async () => {
    const saved = snapshot(env);
    const localRoot = req.localModelPath ?? req.cacheDir;
    const cacheRoot = req.cacheDir ?? req.localModelPath;
    try {
      env.allowLocalModels = true;
      env.allowRemoteModels = req.allowRemote;
      if (localRoot !== undefined) env.localModelPath = localRoot;
      if (cacheRoot !== undefined) env.cacheDir = cacheRoot;
      if (req.fetch) env.fetch = req.fetch;
      const folder = modelFolder(env.localModelPath, req.modelId);
      try {
        return await lib.pipeline('feature-extraction', req.modelId, {
          dtype: req.dtype,
          local_files_only: !req.allowRemote,
          cache_dir: cacheRoot,
          progress_callback: req.onProgress ? progressRelay(req.onProgress) : undefined,
        });
      } catch (err) {
        throw loadError(err, req, folder, onnxFile);
      }
    } finally {
      Object.assign(env, saved);
    }
  });
}
