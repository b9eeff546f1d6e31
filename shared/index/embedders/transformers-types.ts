/**
 * Type-level knowledge of @huggingface/transformers (v4): just the parts the embedder touches.
 * shared/ never imports the library itself; the host hands over the loaded module, which must be
 * assignable to TransformersLike (the real `import('@huggingface/transformers')` is).
 */

/** The library's global `env` object: only the fields we set (and restore) around a load. */
export interface TransformersEnvLike {
  allowRemoteModels: boolean;
  allowLocalModels: boolean;
  /** Root that local model ids resolve under: `<localModelPath>/<modelId>/config.json`, … */
  localModelPath: string;
  /** Where downloads are cached (Node file-system cache): `<cacheDir>/<modelId>/…`. */
  cacheDir: string | null;
  fetch: FetchLike;
}

/** A WHATWG fetch: the library needs `status`, `headers` and `body` of what it resolves to. */
export type FetchLike = (input: string | URL, init?: unknown) => Promise<unknown>;

/** What the library reports while loading; we forward a narrowed form (see ModelLoadProgress). */
export interface TransformersProgressInfo {
  status: string;
  file?: string;
  loaded?: number;
  total?: number;
}

export interface PipelineOptionsLike {
  progress_callback?: (info: TransformersProgressInfo) => void;
  cache_dir?: string;
  local_files_only?: boolean;
  /** 'fp32' → onnx/model.onnx, 'q8' → onnx/model_quantized.onnx. */
  dtype?: 'fp32' | 'q8';
}

/** A tensor as transformers.js returns it: row-major data plus dimensions. */
export interface TensorLike {
  dims: readonly number[];
  data: ArrayLike<number | bigint>;
}

/** The parts of a feature-extraction pipeline we use: its tokenizer and model, called directly. */
export interface FeaturePipelineLike {
  tokenizer: ((
    texts: string[],
    options: { padding: boolean; truncation: boolean; max_length: number },
  ) => Record<string, TensorLike>) & {
    /** Id of [SEP], put back after truncation (see transformers-tokens.ts); absent for tokenizers without one. */
    sep_token_id?: number | null;
  };
  model: ((inputs: Record<string, TensorLike>) => Promise<Record<string, TensorLike | undefined>>) & {
    /** PretrainedConfig; read for `hidden_size` (typed loosely: the library's type has no fields in common). */
    config?: unknown;
  };
  dispose?: () => Promise<void>;
}

export interface TransformersLike {
  env: TransformersEnvLike;
  pipeline(task: 'feature-extraction', model: string, options?: PipelineOptionsLike): Promise<FeaturePipelineLike>;
}

/** Progress of a model load, one event per file step plus a final `ready`. */
export interface ModelLoadProgress {
  /** Path inside the model folder, e.g. `onnx/model.onnx`; '' for the final `ready`. */
  file: string;
  /** Bytes read so far (for `ready`: over all files). */
  loaded: number;
  /** Expected bytes, 0 when not yet known. */
  total: number;
  /** `initiate` | `download` | `progress` | `done` | `ready`. */
  status: string;
}
