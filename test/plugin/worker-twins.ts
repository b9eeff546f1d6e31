/**
 * Twins of a DOM Worker for the MiniLM specs. HandlerWorkerTwin runs the real message handler (from the
 * bundled worker-handler.ts) in this thread, moving every message through structuredClone with its transfer
 * list as a worker would (the sender's buffers are detached), and can hold its replies (a stuck model run),
 * crash, or fail to start. ThreadWorkerTwin is `new Worker(blobUrl)` on a Node worker thread: it reads the
 * Blob the URL names, as a browser does, and evaluates that code in a thread of its own.
 */
import { resolveObjectURL } from 'buffer';
import { Worker as NodeThread } from 'worker_threads';
import type { WorkerLike } from '../../plugin/minilm/worker-client';
import type { MiniLmHandler, PostReply } from '../../plugin/minilm/worker-handler';
import type { WorkerReply, WorkerRequest } from '../../plugin/minilm/worker-protocol';

export type CreateHandler = (post: PostReply) => MiniLmHandler;

export class HandlerWorkerTwin implements WorkerLike {
  onmessage: WorkerLike['onmessage'] = null;
  onerror: WorkerLike['onerror'] = null;
  terminated = false;
  /** Requests as the worker received them. */
  readonly received: WorkerRequest[] = [];
  /** Replies with the buffers each one transferred. */
  readonly replies: Array<{ msg: WorkerReply; transferred: ArrayBuffer[] }> = [];
  /** Embed requests received and not yet answered; the most there ever were. */
  inFlight = 0;
  maxInFlight = 0;
  /** While true, replies are kept back: the worker looks stuck in a model run. */
  holding = false;
  private readonly handler: MiniLmHandler;

  /** `startFails`: the worker's script fails before it reads a message (a worker that cannot start). */
  constructor(create: CreateHandler, private readonly startFails: string | null = null) {
    this.handler = create((msg, transfer) => {
      const moved = structuredClone(msg, { transfer });
      this.replies.push({ msg: moved, transferred: transfer });
      if (msg.type !== 'ready' && msg.id !== undefined) this.inFlight--;
      if (this.holding || this.terminated) return;
      setImmediate(() => !this.terminated && this.onmessage?.({ data: moved }));
    });
  }

  postMessage(msg: WorkerRequest, transfer: ArrayBuffer[]): void {
    if (this.terminated) return;
    const moved = structuredClone(msg, { transfer });
    if (this.startFails !== null) {
      setImmediate(() => this.onerror?.({ message: this.startFails ?? '' }));
      return;
    }
    this.received.push(moved);
    if (moved.type === 'embed') this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    setImmediate(() => void this.handler.handle(moved));
  }

  /** An uncaught error in the worker (out of memory, a bug outside the handler). */
  crash(message: string): void {
    setImmediate(() => this.onerror?.({ message }));
  }

  terminate(): void {
    this.terminated = true;
    void this.handler.dispose();
  }
}

/** Gives the bundle a worker's global postMessage/onmessage over the thread's port. */
const PRELUDE = `
const { parentPort } = require('worker_threads');
globalThis.postMessage = (msg, transfer) => parentPort.postMessage(msg, transfer);
parentPort.on('message', (data) => globalThis.onmessage && globalThis.onmessage({ data }));
`;

export class ThreadWorkerTwin {
  /** Every worker made, to check they were terminated. */
  static readonly made: ThreadWorkerTwin[] = [];
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: { message: string }) => void) | null = null;
  terminated = false;
  private readonly thread: Promise<NodeThread | null>;

  constructor(readonly url: string) {
    ThreadWorkerTwin.made.push(this);
    // Read now, as the browser resolves the URL when the worker is made: revoking it later is allowed.
    const blob = resolveObjectURL(url);
    if (!blob) throw new Error(`No Blob behind ${url}`);
    this.thread = blob.text().then((code) => {
      if (this.terminated) return null;
      const t = new NodeThread(PRELUDE + code, { eval: true });
      t.on('message', (data: unknown) => !this.terminated && this.onmessage?.({ data }));
      t.on('error', (e: Error) => !this.terminated && this.onerror?.({ message: e.message }));
      return t;
    });
  }

  postMessage(msg: unknown, transfer: ArrayBuffer[]): void {
    // Detached here and now, as a DOM worker's postMessage does.
    const moved = structuredClone(msg, { transfer });
    void this.thread.then((t) => t?.postMessage(moved, transfer.length ? collectBuffers(moved) : []));
  }

  terminate(): void {
    this.terminated = true;
    void this.thread.then((t) => t?.terminate());
  }
}

/** The ArrayBuffers inside a moved message (the protocol's init carries them at its top two levels). */
function collectBuffers(value: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (v instanceof ArrayBuffer) out.push(v);
    else if (v && typeof v === 'object' && depth < 3) for (const x of Object.values(v)) visit(x, depth + 1);
  };
  visit(value, 0);
  return out;
}
