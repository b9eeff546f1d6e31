/**
 * What the MiniLM worker does with each message (worker-protocol.ts), as a plain module: the worker entry
 * (worker-main.ts) wires it to its global scope, the in-thread fallback (in-thread-worker.ts) calls it
 * directly, and the specs drive it in Node. It owns transformers.js, onnxruntime-web and the model; the
 * model files arrive in `init` and are served to the library from memory, so nothing is fetched.
 */
import { asLithosError, LithosError } from '../../shared/errors';
import { createTransformersEmbedder, MINILM_SPACE_ID, type TransformersEmbedder } from '../../shared/index/embedders/transformers-embedder';
import { adapterFetch, type ReadAdapter } from './adapter-fetch';
import { webTransformers } from './web-runtime';
import type { EmbedRequest, InitRequest, WorkerReply } from './worker-protocol';

export type PostReply = (msg: WorkerReply, transfer: ArrayBuffer[]) => void;

export interface MiniLmHandler {
  handle(msg: unknown): Promise<void>;
  /** Frees the ONNX session (the in-thread fallback; a real worker is terminated instead). */
  dispose(): Promise<void>;
}

/** transformers.js asks for `<root>/<modelId>/<file>`; the plugin keyed the files by the same vault paths. */
const normal = (p: string): string => p.replace(/\\/g, '/').replace(/\/{2,}/g, '/').replace(/^(\.\/|\/)+/, '');

function memoryFolder(files: Map<string, ArrayBuffer>): ReadAdapter {
  return {
    exists: async (p) => files.has(normal(p)),
    readBinary: async (p) => {
      const bytes = files.get(normal(p));
      if (!bytes) throw new LithosError('not_found', `${p} was not handed to the MiniLM worker.`, { path: p });
      return bytes;
    },
  };
}

/** By tag, not instanceof: in the in-thread fallback the bytes may come from another realm (the plugin host's). */
const isArrayBuffer = (x: unknown): x is ArrayBuffer => Object.prototype.toString.call(x) === '[object ArrayBuffer]';

/** Each vector in a buffer of its own: transferring a view would move (or refuse) the buffer it shares. */
function ownBuffer(v: Float32Array): ArrayBuffer {
  const whole = v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && isArrayBuffer(v.buffer);
  return whole ? v.buffer : v.slice().buffer;
}

function isInit(msg: Record<string, unknown>): msg is Record<string, unknown> & InitRequest {
  return msg.type === 'init' && typeof msg.root === 'string' && isArrayBuffer(msg.wasm) && typeof msg.files === 'object' && msg.files !== null && Object.values(msg.files).every(isArrayBuffer);
}

function isEmbed(msg: Record<string, unknown>): msg is Record<string, unknown> & EmbedRequest {
  return msg.type === 'embed' && Number.isInteger(msg.id) && Array.isArray(msg.texts) && msg.texts.every((t) => typeof t === 'string');
}

export function createMiniLmHandler(post: PostReply): MiniLmHandler {
  let embedder: Promise<TransformersEmbedder> | null = null;
  // One model run at a time, in the order the requests came.
  let queue: Promise<unknown> = Promise.resolve();

  const fail = (err: unknown, id?: number): void => {
    const e = asLithosError(err, 'embedding_failed');
    post({ type: 'error', ...(id === undefined ? {} : { id }), code: e.code, message: e.message }, []);
  };

  const init = async (msg: InitRequest): Promise<void> => {
    if (embedder) return fail(new LithosError('protocol_error', 'The MiniLM worker was already given a model.'));
    const files = new Map(Object.entries(msg.files).map(([p, b]) => [normal(p), b] as const));
    const wasm = new Uint8Array(msg.wasm);
    embedder = createTransformersEmbedder({
      loadLibrary: () => webTransformers(wasm),
      localModelPath: msg.root,
      allowRemote: false,
      spaceId: MINILM_SPACE_ID,
      fetch: adapterFetch(memoryFolder(files)),
      // One text per run: the same vectors as the bridge's unpadded runs, and no padding work.
      batchSize: 1,
    });
    try {
      const ready = await embedder;
      post({ type: 'ready', dims: ready.dimensions }, []);
    } catch (err) {
      embedder = null;
      fail(err);
    } finally {
      // The library holds its own copy of the weights now.
      files.clear();
    }
  };

  const embed = async (msg: EmbedRequest): Promise<void> => {
    if (!embedder) return fail(new LithosError('embedding_failed', 'The MiniLM worker has no model loaded.'), msg.id);
    try {
      const vectors = (await (await embedder).embed(msg.texts)).map(ownBuffer);
      post({ type: 'embedded', id: msg.id, vectors }, vectors);
    } catch (err) {
      fail(err, msg.id);
    }
  };

  return {
    async handle(raw: unknown): Promise<void> {
      const msg = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
      if (isInit(msg)) return init(msg);
      if (isEmbed(msg)) {
        const run = queue.then(() => embed(msg));
        queue = run;
        return run;
      }
      const id = Number.isInteger(msg.id) ? (msg.id as number) : undefined;
      const type = typeof msg.type === 'string' ? msg.type : null;
      const known = type === 'init' || type === 'embed';
      fail(new LithosError('protocol_error', known ? `The MiniLM worker got a malformed "${type}" message.` : `The MiniLM worker does not understand a message of type ${type ?? typeof raw}.`), id);
    },
    async dispose(): Promise<void> {
      const current = embedder;
      embedder = null;
      await queue;
      if (current) await (await current.catch(() => null))?.dispose();
    },
  };
}
