/**
 * The plugin's side of the MiniLM worker: an Embedder (space `minilm-l6-v2`) whose model runs wherever the
 * WorkerLike runs it, a Web Worker or the in-thread fallback. Requests go one at a time, so each timeout
 * measures that request's own work; a timeout or a dead worker stops it and fails what is queued.
 */
import { LithosError, type ErrorCode } from '../../shared/errors';
import { DEFAULT_MODEL_ID, MINILM_SPACE_ID, type TransformersEmbedder } from '../../shared/index/embedders/transformers-embedder';
import { initTransfer, type InitRequest, type WorkerReply, type WorkerRequest } from './worker-protocol';

/** The parts of a DOM Worker used here; in-thread-worker.ts and the specs' twin implement it too. */
export interface WorkerLike {
  postMessage(msg: WorkerRequest, transfer: ArrayBuffer[]): void;
  onmessage: ((e: { data: unknown }) => void) | null;
  /** The worker's script failed or threw outside the handler. */
  onerror: ((e: { message?: string }) => void) | null;
  terminate(): void;
}

export type RunsIn = 'worker' | 'main-thread';

export interface MiniLmEmbedder extends TransformersEmbedder {
  readonly runsIn: RunsIn;
  /** Why the model runs on the main thread; null when it runs in a worker. */
  readonly fallback: string | null;
}

export interface MiniLmClientOptions {
  runsIn: RunsIn;
  fallback?: string | null;
  /** From init to ready (reading 91 MB of weights into the runtime). Default 120 s. */
  loadTimeoutMs?: number;
  /** Per text of a request. Default 30 s: one chunk takes well under a second. */
  embedTimeoutMs?: number;
}

export const DEFAULT_LOAD_TIMEOUT_MS = 120_000;
export const DEFAULT_EMBED_TIMEOUT_MS = 30_000;

/** The code a start rejects with when the worker itself could not run (not the model): the caller may fall back. */
export const WORKER_UNAVAILABLE: ErrorCode = 'unavailable';

interface Request {
  texts: string[];
  resolve(v: Float32Array[]): void;
  reject(e: LithosError): void;
}

function isReply(data: unknown): data is WorkerReply {
  return data !== null && typeof data === 'object' && typeof (data as { type?: unknown }).type === 'string';
}

const duration = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);

/** Sends `init` (its buffers transferred) and resolves once the worker has loaded the model. */
export function startMiniLmWorker(worker: WorkerLike, init: InitRequest, o: MiniLmClientOptions): Promise<MiniLmEmbedder> {
  const loadTimeout = o.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  const embedTimeout = o.embedTimeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS;
  let dims = 0;
  let dead: LithosError | null = null;
  let nextId = 1;
  let current: (Request & { id: number; timer: ReturnType<typeof setTimeout> }) | null = null;
  const waiting: Request[] = [];
  let started: { resolve(e: MiniLmEmbedder): void; reject(e: LithosError): void; timer: ReturnType<typeof setTimeout> } | null = null;

  const die = (err: LithosError): void => {
    if (dead) return;
    dead = err;
    worker.onmessage = null;
    worker.onerror = null;
    worker.terminate();
    if (started) {
      clearTimeout(started.timer);
      started.reject(err);
      started = null;
    }
    if (current) {
      clearTimeout(current.timer);
      current.reject(err);
      current = null;
    }
    for (const r of waiting.splice(0)) r.reject(err);
  };

  const pump = (): void => {
    if (dead || current || !waiting.length) return;
    const r = waiting.shift() as Request;
    const id = nextId++;
    const limit = embedTimeout * r.texts.length;
    const timer = setTimeout(() => {
      die(new LithosError('timeout', `all-MiniLM-L6-v2 did not embed ${r.texts.length} text(s) within ${duration(limit)}; its ${o.runsIn === 'worker' ? 'worker was' : 'runtime was'} stopped.`, { retryable: true, timeoutMs: limit }));
    }, limit);
    current = { ...r, id, timer };
    worker.postMessage({ type: 'embed', id, texts: r.texts }, []);
  };

  const settle = (msg: WorkerReply): void => {
    const r = current;
    if (!r || msg.type === 'ready' || msg.id !== r.id) return;
    clearTimeout(r.timer);
    current = null;
    if (msg.type === 'error') r.reject(new LithosError(msg.code, msg.message));
    else if (msg.vectors.length !== r.texts.length) r.reject(new LithosError('embedding_failed', `The MiniLM worker returned ${msg.vectors.length} vectors for ${r.texts.length} texts.`));
    else {
      const vectors = msg.vectors.map((b) => new Float32Array(b));
      if (vectors.some((v) => v.length !== dims)) r.reject(new LithosError('embedding_failed', `The MiniLM worker returned vectors of ${vectors.find((v) => v.length !== dims)?.length} dims, expected ${dims}.`));
      else r.resolve(vectors);
    }
    pump();
  };

  const embedder: MiniLmEmbedder = {
    spaceId: MINILM_SPACE_ID,
    modelId: DEFAULT_MODEL_ID,
    runsIn: o.runsIn,
    fallback: o.fallback ?? null,
    get dimensions() {
      return dims;
    },
    embed(texts: string[]): Promise<Float32Array[]> {
      if (dead) return Promise.reject(dead);
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        waiting.push({ texts, resolve, reject });
        pump();
      });
    },
    async dispose(): Promise<void> {
      die(new LithosError('cancelled', 'all-MiniLM-L6-v2 was switched off.'));
    },
  };

  return new Promise<MiniLmEmbedder>((resolve, reject) => {
    const timer = setTimeout(() => {
      die(new LithosError('timeout', `all-MiniLM-L6-v2 did not load within ${duration(loadTimeout)}.`, { retryable: true, timeoutMs: loadTimeout }));
    }, loadTimeout);
    started = { resolve, reject, timer };
    worker.onmessage = (e) => {
      const msg = e.data;
      if (!isReply(msg)) return die(new LithosError('protocol_error', 'The MiniLM worker sent a message Lithos does not understand.'));
      if (!started) return settle(msg);
      if (msg.type === 'embedded') return;
      const s = started;
      started = null;
      clearTimeout(s.timer);
      if (msg.type === 'ready') {
        dims = msg.dims;
        s.resolve(embedder);
      } else {
        const err = new LithosError(msg.code, msg.message);
        die(err);
        s.reject(err);
      }
    };
    worker.onerror = (e) => {
      const why = e.message || 'its script failed';
      die(started ? new LithosError(WORKER_UNAVAILABLE, `The MiniLM worker could not start: ${why}`) : new LithosError('embedding_failed', `The MiniLM worker stopped: ${why}`));
    };
    try {
      worker.postMessage(init, initTransfer(init));
    } catch (err) {
      die(new LithosError(WORKER_UNAVAILABLE, `The MiniLM worker could not be given the model: ${err instanceof Error ? err.message : String(err)}`));
    }
  });
}
