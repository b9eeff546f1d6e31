/**
 * The plugin's side of the MiniLM worker (plugin/minilm/worker-client.ts) against a Worker twin that runs the
 * real handler (bundled with onnxruntime-web) and moves messages with their transfer lists: the model's bytes
 * leave the plugin, requests go one at a time and come back to their callers, and a stuck, crashed or
 * unstartable worker, a failed load and a switch-off each end in a clear LithosError.
 */
import { LithosError } from '../../shared/errors';
import { startMiniLmWorker, type MiniLmEmbedder } from '../../plugin/minilm/worker-client';
import { FOLDER, initFor, workerFixture, type WorkerFixture } from './minilm-worker-fixture';
import { HandlerWorkerTwin, type CreateHandler } from './worker-twins';

let f: WorkerFixture;
let create: CreateHandler;
beforeAll(async () => {
  f = await workerFixture(5);
  create = f.handlerModule().createMiniLmHandler;
}, 60_000);
afterAll(() => f.cleanup());

async function rejection(p: Promise<unknown>): Promise<LithosError> {
  const err: unknown = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(LithosError);
  return err as LithosError;
}

async function started(twin = new HandlerWorkerTwin(create), o: { embedTimeoutMs?: number } = {}): Promise<{ twin: HandlerWorkerTwin; e: MiniLmEmbedder }> {
  return { twin, e: await startMiniLmWorker(twin, initFor(f), { runsIn: 'worker', ...o }) };
}

test('init moves the model\'s bytes to the worker; requests go one at a time and each caller gets its own texts\' vectors', async () => {
  const twin = new HandlerWorkerTwin(create);
  const init = initFor(f);
  const e = await startMiniLmWorker(twin, init, { runsIn: 'worker' });
  expect(init.wasm.byteLength).toBe(0);
  for (const b of Object.values(init.files)) expect(b.byteLength).toBe(0);
  expect([e.spaceId, e.modelId, e.dimensions, e.runsIn, e.fallback]).toEqual(['minilm-l6-v2', 'Xenova/all-MiniLM-L6-v2', 24, 'worker', null]);

  const [one, two, three] = await Promise.all([e.embed(['cats on mats', 'quantum physics']), e.embed(['the cat']), e.embed(['quantum physics'])]);
  expect([one.length, two.length, three.length]).toEqual([2, 1, 1]);
  expect(Array.from(three[0])).toEqual(Array.from(one[1]));
  expect(Array.from(two[0])).not.toEqual(Array.from(one[0]));
  expect(twin.maxInFlight).toBe(1);
  expect(twin.received.map((m) => (m.type === 'embed' ? m.texts : m.type))).toEqual(['init', ['cats on mats', 'quantum physics'], ['the cat'], ['quantum physics']]);
  // The vectors came as transferred buffers, one per text.
  expect(twin.replies.slice(1).map((r) => r.transferred.length)).toEqual([2, 1, 1]);
  expect(await e.embed([])).toEqual([]);
  await e.dispose();
  expect(twin.terminated).toBe(true);
});

test('a request the worker does not answer in time is a timeout: the worker is stopped and what waited fails too', async () => {
  const { twin, e } = await started(undefined, { embedTimeoutMs: 40 });
  twin.holding = true;
  const first = e.embed(['stuck', 'run']);
  const queued = e.embed(['waiting']);
  const err = await rejection(first);
  expect(err.code).toBe('timeout');
  expect(err.message).toBe('all-MiniLM-L6-v2 did not embed 2 text(s) within 80 ms; its worker was stopped.');
  expect(err.data).toMatchObject({ retryable: true, timeoutMs: 80 });
  expect(await rejection(queued)).toBe(err);
  expect(twin.terminated).toBe(true);
  expect((await rejection(e.embed(['later']))).code).toBe('timeout');
});

test('a model that does not load in time is a timeout; a model that fails to load is its own error, not a fallback', async () => {
  const stuck = new HandlerWorkerTwin(create);
  stuck.holding = true;
  const slow = await rejection(startMiniLmWorker(stuck, initFor(f), { runsIn: 'worker', loadTimeoutMs: 30 }));
  expect([slow.code, slow.message]).toEqual(['timeout', 'all-MiniLM-L6-v2 did not load within 30 ms.']);
  expect(stuck.terminated).toBe(true);

  const corrupt = new HandlerWorkerTwin(create);
  const bad = await rejection(startMiniLmWorker(corrupt, initFor(f, { replace: { [`${FOLDER}/onnx/model.onnx`]: new Uint8Array([9, 9, 9]) } }), { runsIn: 'worker' }));
  expect(bad.code).toBe('embedding_failed');
  expect(bad.message).toMatch(/^Could not load embedding model "Xenova\/all-MiniLM-L6-v2"/);
  expect(corrupt.terminated).toBe(true);
});

test('a worker that cannot start is `unavailable` (the loader falls back); one that dies later fails its requests', async () => {
  const blocked = new HandlerWorkerTwin(create, 'Refused to create a worker from a blob: URL');
  const start = await rejection(startMiniLmWorker(blocked, initFor(f), { runsIn: 'worker' }));
  expect([start.code, start.message]).toEqual(['unavailable', 'The MiniLM worker could not start: Refused to create a worker from a blob: URL']);
  expect(blocked.terminated).toBe(true);

  const { twin, e } = await started();
  twin.holding = true;
  const running = e.embed(['in the model']);
  twin.crash('Out of memory');
  const died = await rejection(running);
  expect([died.code, died.message]).toEqual(['embedding_failed', 'The MiniLM worker stopped: Out of memory']);
  expect(twin.terminated).toBe(true);
});

test('dispose stops the worker at once: what was asked fails as cancelled, later calls too', async () => {
  const { twin, e } = await started();
  twin.holding = true;
  const pending = [e.embed(['a']), e.embed(['b'])];
  await e.dispose();
  expect(twin.terminated).toBe(true);
  for (const p of pending) expect((await rejection(p)).code).toBe('cancelled');
  const after = await rejection(e.embed(['c']));
  expect([after.code, after.message]).toEqual(['cancelled', 'all-MiniLM-L6-v2 was switched off.']);
  await e.dispose();
});
