/**
 * Entry of the MiniLM worker bundle (built by scripts/onnx-web-esbuild.mjs, carried in main.js as a string,
 * started from a Blob URL by load-minilm.ts). The same code serves the fallback: evaluated on the main thread
 * with `LITHOS_IN_THREAD` bound, it hands over the handler factory instead of listening to a worker scope.
 */
import { createMiniLmHandler } from './worker-handler';
import type { WorkerReply } from './worker-protocol';

declare const LITHOS_IN_THREAD: ((create: typeof createMiniLmHandler) => void) | undefined;

/** The parts of DedicatedWorkerGlobalScope used here (the DOM lib has no worker types). */
interface WorkerScope {
  postMessage(msg: WorkerReply, transfer: ArrayBuffer[]): void;
  onmessage: ((e: { data: unknown }) => void) | null;
}

if (typeof LITHOS_IN_THREAD === 'function') {
  LITHOS_IN_THREAD(createMiniLmHandler);
} else {
  const scope = globalThis as unknown as WorkerScope;
  const handler = createMiniLmHandler((msg, transfer) => scope.postMessage(msg, transfer));
  scope.onmessage = (e) => void handler.handle(e.data);
}
