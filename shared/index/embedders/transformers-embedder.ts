/**
 * Sentence embeddings from a BERT-style ONNX model through transformers.js, by default
 * all-MiniLM-L6-v2 (space `minilm-l6-v2`, 384 dims, mean pooling, L2-normalised).
 * The host supplies the library and the folders; shared/ stays free of Node and of the library.
 */
import { LithosError, asLithosError } from '../../errors';
import type { Embedder } from '../../ports';
import { loadFeaturePipeline } from './transformers-load';
import { meanPoolNormalize } from './transformers-pooling';
import { keepTrailingSeparator } from './transformers-tokens';
import type { FeaturePipelineLike, FetchLike, ModelLoadProgress, TransformersLike } from './transformers-types';

export type { FetchLike, ModelLoadProgress, TransformersLike } from './transformers-types';

export const DEFAULT_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';
export const MINILM_SPACE_ID = 'minilm-l6-v2';
/** sentence-transformers' max_seq_length for all-MiniLM-L6-v2; longer texts are truncated to it. */
export const DEFAULT_MAX_TOKENS = 256;
export const DEFAULT_BATCH_SIZE = 16;

/** Exports of the same weights: they share one embedding space. */
const MINILM_IDS = new Set(['Xenova/all-MiniLM-L6-v2', 'sentence-transformers/all-MiniLM-L6-v2', 'onnx-community/all-MiniLM-L6-v2-ONNX']);

export interface TransformersEmbedderOptions {
  /** Returns the @huggingface/transformers module, e.g. `() => import('@huggingface/transformers')`. */
  loadLibrary: () => Promise<TransformersLike>;
  /** Hub id; also the sub-folder looked up under localModelPath / cacheDir. Default Xenova/all-MiniLM-L6-v2. */
  modelId?: string;
  /** Where downloads are stored (`<vault>/.lithos/models`). Defaults to localModelPath. */
  cacheDir?: string;
  /** Root holding `<modelId>/config.json`, … Defaults to cacheDir. */
  localModelPath?: string;
  /** false: never touch the network; a missing model is a `model_missing` error. */
  allowRemote: boolean;
  onProgress?: (p: ModelLoadProgress) => void;
  /** Defaults to `minilm-l6-v2` for MiniLM-L6-v2 exports, else derived from modelId (see spaceIdForModel). */
  spaceId?: string;
  batchSize?: number;
  /** true: onnx/model_quantized.onnx (q8); false (default): onnx/model.onnx (fp32). */
  quantized?: boolean;
  /** Token limit per text, [CLS] and [SEP] included. Default 256. */
  maxTokens?: number;
  /** Replaces the library's fetch during the load (proxies, tests). */
  fetch?: FetchLike;
}

export interface TransformersEmbedder extends Embedder {
  readonly modelId: string;
  /** Frees the ONNX session; later embed() calls fail. */
  dispose(): Promise<void>;
}

/** `minilm-l6-v2` for all-MiniLM-L6-v2 exports; otherwise `hf-` + the lower-cased id with non-alphanumerics as '-'. */
export function spaceIdForModel(modelId: string): string {
  if (MINILM_IDS.has(modelId)) return MINILM_SPACE_ID;
  return `hf-${modelId.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')}`;
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new LithosError('invalid_argument', `${name} must be a positive integer, got ${value}.`, { [name]: value });
  }
  return value;
}

async function loadLibrary(opts: TransformersEmbedderOptions): Promise<TransformersLike> {
  try {
    return await opts.loadLibrary();
  } catch (err) {
    throw new LithosError('embedding_failed', `Could not load the transformers library: ${asLithosError(err).message}`, {
      cause: asLithosError(err).message,
    });
  }
}

function outputOf(out: Record<string, unknown>) {
  // Hub exports name it last_hidden_state; sentence-transformers' own ONNX export, token_embeddings.
  const hidden = out.last_hidden_state ?? out.token_embeddings;
  if (!hidden) throw new LithosError('embedding_failed', `Model has no last_hidden_state output (got ${Object.keys(out).join(', ')}).`);
  return hidden as Parameters<typeof meanPoolNormalize>[0];
}

/** Runs one batch: tokenize (padded, truncated as sentence-transformers does), run the model, pool. */
async function embedBatch(pipe: FeaturePipelineLike, texts: string[], maxTokens: number): Promise<Float32Array[]> {
  const inputs = pipe.tokenizer(texts, { padding: true, truncation: true, max_length: maxTokens });
  const sepId = pipe.tokenizer.sep_token_id;
  if (typeof sepId === 'number') keepTrailingSeparator(inputs.input_ids, inputs.attention_mask, sepId, maxTokens);
  const out = await pipe.model(inputs);
  return meanPoolNormalize(outputOf(out), inputs.attention_mask);
}

function configuredDimensions(pipe: FeaturePipelineLike): number | null {
  const config = pipe.model.config;
  const hidden = config && typeof config === 'object' ? (config as { hidden_size?: unknown }).hidden_size : undefined;
  return typeof hidden === 'number' && Number.isInteger(hidden) && hidden > 0 ? hidden : null;
}

/**
 * Loads the model now (downloading it first when allowed and absent) and returns the embedder.
 * Throws `model_missing` naming the folder it looked in, or `embedding_failed` for other load failures.
 */
export async function createTransformersEmbedder(opts: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
  const modelId = opts.modelId ?? DEFAULT_MODEL_ID;
  const batchSize = positiveInt('batchSize', opts.batchSize, DEFAULT_BATCH_SIZE);
  const maxTokens = positiveInt('maxTokens', opts.maxTokens, DEFAULT_MAX_TOKENS);
  const spaceId = opts.spaceId ?? spaceIdForModel(modelId);
  const lib = await loadLibrary(opts);
  const pipe = await loadFeaturePipeline(lib, {
    modelId,
    cacheDir: opts.cacheDir,
    localModelPath: opts.localModelPath,
    allowRemote: opts.allowRemote,
    dtype: opts.quantized ? 'q8' : 'fp32',
    onProgress: opts.onProgress,
    fetch: opts.fetch,
  });

  let disposed = false;
  const run = async (texts: string[]): Promise<Float32Array[]> => {
    if (disposed) throw new LithosError('embedding_failed', `Embedder for "${modelId}" was disposed.`, { modelId });
    const vectors: Float32Array[] = [];
    try {
      for (let i = 0; i < texts.length; i += batchSize) vectors.push(...(await embedBatch(pipe, texts.slice(i, i + batchSize), maxTokens)));
    } catch (err) {
      if (err instanceof LithosError) throw err;
      const cause = asLithosError(err).message;
      throw new LithosError('embedding_failed', `Embedding with "${modelId}" failed: ${cause}`, { modelId, cause });
    }
    return vectors;
  };

  // The config says how wide the vectors are; a model without hidden_size is measured once.
  const dimensions = configuredDimensions(pipe) ?? (await run(['dimension probe']))[0].length;

  return {
    spaceId,
    dimensions,
    modelId,
    async embed(texts: string[]): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      const vectors = await run(texts);
      if (vectors.some((v) => v.length !== dimensions)) {
        throw new LithosError('embedding_failed', `Model "${modelId}" returned vectors of ${vectors[0].length} dims, expected ${dimensions}.`, {
          modelId,
        });
      }
      return vectors;
    },
    async dispose(): Promise<void> {
      if (disposed) return;
      disposed = true;
      await pipe.dispose?.();
    },
  };
}
