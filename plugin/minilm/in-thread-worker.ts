/**
 * The fallback where Web Workers or Blob URLs are missing (or the worker does not start): the worker bundle's
 * code evaluated on the main thread, its handler behind the same WorkerLike as a real worker, so the client,
 * the protocol and the vectors are the same. Each model run then holds Obsidian's thread, as before issue 6.
 */
import type { WorkerLike } from './worker-client';
import type { MiniLmHandler, PostReply } from './worker-handler';
import type { WorkerRequest } from './worker-protocol';

type CreateHandler = (post: PostReply) => MiniLmHandler;

/** Runs the bundle with `LITHOS_IN_THREAD` bound (worker-main.ts); a fresh evaluation is a fresh ONNX runtime. */
function evaluate(code: string): CreateHandler {
  let create: CreateHandler | null = null;
  // The bundle is our own build output carried in main.js, evaluated like Obsidian evaluates main.js itself.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const run = new Function('LITHOS_IN_THREAD', code) as (bind: (c: CreateHandler) => void) => void;
  run((c) => (create = c));
  if (!create) throw new Error('the MiniLM worker bundle did not hand over its handler');
  return create;
}

export class InThreadWorker implements WorkerLike {
  onmessage: WorkerLike['onmessage'] = null;
  onerror: WorkerLike['onerror'] = null;
  private handler: MiniLmHandler | null;

  constructor(code: string) {
    // Replies arrive on a later task, as a worker's would.
    this.handler = evaluate(code)((msg) => setTimeout(() => this.handler && this.onmessage?.({ data: msg }), 0));
  }

  postMessage(msg: WorkerRequest): void {
    const handler = this.handler;
    if (handler) setTimeout(() => void handler.handle(msg), 0);
  }

  terminate(): void {
    const handler = this.handler;
    this.handler = null;
    void handler?.dispose();
  }
}
