import type { ErrorCode } from '../../shared/errors';

/**
 * The messages between the plugin and the worker that runs all-MiniLM-L6-v2 (worker-main.ts). Bytes travel
 * as ArrayBuffers in the transfer list, so the 91 MB of weights are moved to the worker, not copied.
 */

/** The model folder as read through the vault adapter. Keys are vault paths (`<root>/<modelId>/<file>`). */
export interface InitRequest {
  type: 'init';
  /** The Model folder setting: transformers.js resolves `<root>/<modelId>/…`, and errors name it. */
  root: string;
  /** onnxruntime-web's wasm binary. */
  wasm: ArrayBuffer;
  files: Record<string, ArrayBuffer>;
}

export interface EmbedRequest {
  type: 'embed';
  id: number;
  texts: string[];
}

export type WorkerRequest = InitRequest | EmbedRequest;

export interface ReadyReply {
  type: 'ready';
  dims: number;
}

/** One Float32Array buffer per text, in order. */
export interface EmbeddedReply {
  type: 'embedded';
  id: number;
  vectors: ArrayBuffer[];
}

/** `id` names the embed request that failed; without it, init failed. `code` is a LithosError code. */
export interface ErrorReply {
  type: 'error';
  id?: number;
  code: ErrorCode;
  message: string;
}

export type WorkerReply = ReadyReply | EmbeddedReply | ErrorReply;

/** The buffers of an init message, for its transfer list. */
export function initTransfer(msg: InitRequest): ArrayBuffer[] {
  return [msg.wasm, ...Object.values(msg.files)];
}
