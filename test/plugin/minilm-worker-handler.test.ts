/**
 * The MiniLM worker's message handler (plugin/minilm/worker-handler.ts), bundled as the worker bundles it and
 * run here in Node on onnxruntime-web's wasm with a generated tiny model: `init` loads the model from the
 * bytes it carries (nothing fetched), `embed` answers with one transferred Float32Array buffer per text,
 * equal to the bridge's onnxruntime-node vectors, in request order; every bad message or failed load is an
 * `error` reply with a stable code.
 */
import { createTransformersEmbedder } from '../../shared/index/embedders/transformers-embedder';
import type { EmbeddedReply, WorkerReply } from '../../plugin/minilm/worker-protocol';
import { loadTransformers } from '../index/embedders/load-transformers';
import { FOLDER, initFor, WASM, workerFixture, type WorkerFixture } from './minilm-worker-fixture';
import type { CreateHandler } from './worker-twins';

const TEXTS = ['The cat sat on the mat.', 'Quantum physics and entanglement.', 'the cat', 'A longer sentence about cats, mats and physics that is cut at the token limit '.repeat(4)];

let f: WorkerFixture;
let create: CreateHandler;
beforeAll(async () => {
  f = await workerFixture(7);
  create = f.handlerModule().createMiniLmHandler;
}, 60_000);
afterAll(() => f.cleanup());

/** A handler and the replies it posts, with what each transferred. */
function handler(make: CreateHandler = create) {
  const replies: Array<{ msg: WorkerReply; transfer: ArrayBuffer[] }> = [];
  const h = make((msg, transfer) => replies.push({ msg, transfer }));
  return { h, replies, msgs: () => replies.map((r) => r.msg) };
}

test('init loads the model from the bytes it carries; embed answers with transferable vectors equal to onnxruntime-node\'s', async () => {
  const fetched: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request) => {
    fetched.push(input instanceof Request ? input.url : String(input));
    throw new Error('network access in the worker');
  };
  const { h, replies, msgs } = handler();
  try {
    await h.handle(initFor(f));
    expect(msgs()).toEqual([{ type: 'ready', dims: 24 }]);
    await h.handle({ type: 'embed', id: 1, texts: TEXTS });
  } finally {
    globalThis.fetch = realFetch;
  }
  expect(fetched).toEqual([]);
  const reply = replies[1];
  expect(reply.msg).toMatchObject({ type: 'embedded', id: 1 });
  const vectors = (reply.msg as EmbeddedReply).vectors;
  expect(vectors).toHaveLength(TEXTS.length);
  // Each vector its own buffer of exactly 24 floats, each listed once for the transfer.
  expect(reply.transfer).toEqual(vectors);
  expect(new Set(reply.transfer).size).toBe(TEXTS.length);
  for (const b of vectors) expect(b.byteLength).toBe(24 * 4);

  const node = await createTransformersEmbedder({ loadLibrary: loadTransformers, localModelPath: f.models, allowRemote: false });
  const expected = await node.embed(TEXTS);
  await node.dispose();
  let worst = 0;
  vectors.forEach((b, i) => new Float32Array(b).forEach((x, d) => (worst = Math.max(worst, Math.abs(x - expected[i][d])))));
  expect(worst).toBeLessThan(1e-5);
  const [a, b] = [new Float32Array(vectors[0]), new Float32Array(vectors[1])];
  expect(Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1])).toBeGreaterThan(1e-3);
  await h.dispose();
});

test('requests sent together are answered one by one, in order, each with its own texts\' vectors', async () => {
  const { h, msgs } = handler();
  await h.handle(initFor(f));
  const single = handler();
  await single.h.handle(initFor(f));
  await single.h.handle({ type: 'embed', id: 9, texts: [TEXTS[2]] });
  const alone = new Float32Array((single.msgs()[1] as EmbeddedReply).vectors[0]);
  await Promise.all([h.handle({ type: 'embed', id: 1, texts: [TEXTS[0], TEXTS[1]] }), h.handle({ type: 'embed', id: 2, texts: [TEXTS[2]] }), h.handle({ type: 'embed', id: 3, texts: [] })]);
  const answered = msgs().slice(1) as EmbeddedReply[];
  expect(answered.map((m) => [m.type, m.id, m.vectors.length])).toEqual([['embedded', 1, 2], ['embedded', 2, 1], ['embedded', 3, 0]]);
  expect(Array.from(new Float32Array(answered[1].vectors[0]))).toEqual(Array.from(alone));
  await h.dispose();
  await single.h.dispose();
});

test('bad messages are protocol_error replies; embed before init is embedding_failed; a second init is refused', async () => {
  const { h, msgs } = handler();
  await h.handle({ type: 'embed', id: 4, texts: ['early'] });
  await h.handle({ type: 'embed', id: 5, texts: [42] });
  await h.handle({ type: 'init', root: '.lithos/models', wasm: 'not bytes', files: {} });
  await h.handle({ type: 'shutdown', id: 6 });
  await h.handle('hello');
  expect(msgs()).toEqual([
    { type: 'error', id: 4, code: 'embedding_failed', message: 'The MiniLM worker has no model loaded.' },
    { type: 'error', id: 5, code: 'protocol_error', message: 'The MiniLM worker got a malformed "embed" message.' },
    { type: 'error', code: 'protocol_error', message: 'The MiniLM worker got a malformed "init" message.' },
    { type: 'error', id: 6, code: 'protocol_error', message: 'The MiniLM worker does not understand a message of type shutdown.' },
    { type: 'error', code: 'protocol_error', message: 'The MiniLM worker does not understand a message of type string.' },
  ]);
  await h.handle(initFor(f));
  await h.handle(initFor(f));
  expect(msgs().slice(5)).toEqual([
    { type: 'ready', dims: 24 },
    { type: 'error', code: 'protocol_error', message: 'The MiniLM worker was already given a model.' },
  ]);
  await h.dispose();
  await h.handle({ type: 'embed', id: 7, texts: ['after'] });
  expect(msgs()[7]).toEqual({ type: 'error', id: 7, code: 'embedding_failed', message: 'The MiniLM worker has no model loaded.' });
});

test('a missing model file is model_missing, corrupt weights and a refused wasm are embedding_failed, all as init errors', async () => {
  const missing = handler();
  await missing.h.handle(initFor(f, { replace: { [`${FOLDER}/onnx/model.onnx`]: null } }));
  expect(missing.msgs()).toEqual([expect.objectContaining({ type: 'error', code: 'model_missing' })]);
  expect((missing.msgs()[0] as { message: string }).message).toContain(`was not found in ${FOLDER}`);
  expect(missing.msgs()[0]).not.toHaveProperty('id');

  const corrupt = handler();
  await corrupt.h.handle(initFor(f, { replace: { [`${FOLDER}/onnx/model.onnx`]: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) } }));
  expect(corrupt.msgs()).toEqual([expect.objectContaining({ type: 'error', code: 'embedding_failed' })]);
  expect((corrupt.msgs()[0] as { message: string }).message).toMatch(/^Could not load embedding model "Xenova\/all-MiniLM-L6-v2" from \.lithos\/models\/Xenova\/all-MiniLM-L6-v2: /);

  // ORT instantiates its wasm once per loaded bundle: a fresh copy gets a fresh runtime.
  const printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const refused = handler(f.handlerModule().createMiniLmHandler);
  await refused.h.handle(initFor(f, { wasm: WASM.slice(0, 100_000) })).finally(() => printed.mockRestore());
  expect(refused.msgs()).toEqual([expect.objectContaining({ type: 'error', code: 'embedding_failed' })]);
});
